import type {
  KubeConfig,
  KubernetesListObject,
  KubernetesObject,
  RequestContext,
  ResponseContext,
} from '@kubernetes/client-node';
import { clientNode } from '../../kubernetes/clientNode';
import { ConnectionPool } from '../../kubernetes/connectionReuse';
import type { ObjectType } from '../managedKinds';
import type { KindSource } from './KindWatch';

type Lists = {
  resource(
    apiVersion: string,
    kind: string,
  ): Promise<{ name: string } | undefined>;
};

/**
 * How one cluster's kinds are listed and watched, on its KubeConfig (server, TLS, token): the
 * plural from discovery, the LIST in pages of 500 (one resourceVersion for all of them: the
 * continue token keeps the first page's snapshot) with the watch's selectors, the WATCH with
 * client-node's `Watch`.
 */
export function kindSources(
  kubeConfig: KubeConfig,
  options: { requestTimeoutMs: number },
): (type: ObjectType) => KindSource {
  const {
    createConfiguration,
    CustomObjectsApi,
    KubernetesObjectApi,
    ServerConfiguration,
    Watch,
  } = clientNode();
  const pool = new ConnectionPool();
  const configuration = createConfiguration({
    baseServer: new ServerConfiguration(
      kubeConfig.getCurrentCluster()!.server,
      {},
    ),
    authMethods: { default: kubeConfig },
    promiseMiddleware: [
      {
        pre: async (context: RequestContext) => {
          context.setSignal(AbortSignal.timeout(options.requestTimeoutMs));
          pool.reuse(context);
          return context;
        },
        post: async (response: ResponseContext) => response,
      },
    ],
  });
  const objects = new KubernetesObjectApi(configuration);
  const custom = new CustomObjectsApi(configuration);
  const watch = new Watch(kubeConfig);
  return type => {
    const slash = type.apiVersion.indexOf('/');
    const group = slash >= 0 ? type.apiVersion.slice(0, slash) : '';
    const version = type.apiVersion.slice(slash + 1);
    let plural: string | undefined;
    return {
      watch,
      async path() {
        const resource = await (objects as unknown as Lists).resource(
          type.apiVersion,
          type.kind,
        );
        if (!resource) return undefined;
        plural = resource.name;
        return group
          ? `/apis/${group}/${version}/${plural}`
          : `/api/${version}/${plural}`;
      },
      async list(_path, { labelSelector, fieldSelector }) {
        const items: KubernetesObject[] = [];
        let resourceVersion: string | undefined;
        let continueToken: string | undefined;
        do {
          const page: KubernetesListObject<KubernetesObject> & {
            metadata?: { continue?: string; _continue?: string };
          } = group
            ? await custom.listClusterCustomObject({
                group,
                version,
                plural: plural!,
                labelSelector,
                fieldSelector,
                limit: 500,
                ...(continueToken ? { _continue: continueToken } : {}),
              })
            : // Core kinds have typed lists, which keep the continue token.
              await objects.list(
                type.apiVersion,
                type.kind,
                undefined,
                undefined,
                undefined,
                undefined,
                fieldSelector,
                labelSelector,
                500,
                continueToken,
              );
          // Items of a list carry no apiVersion/kind for built-in kinds; the watch's objects do.
          for (const item of page.items)
            items.push({
              ...item,
              apiVersion: type.apiVersion,
              kind: type.kind,
            });
          resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
          continueToken =
            page.metadata?.continue || page.metadata?._continue || undefined;
        } while (continueToken);
        return {
          apiVersion: 'v1',
          kind: 'List',
          items,
          metadata: { resourceVersion },
        } as KubernetesListObject<KubernetesObject>;
      },
    };
  };
}
