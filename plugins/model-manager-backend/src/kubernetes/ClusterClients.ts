import type {
  CoreV1Api,
  CustomObjectsApi,
  KubernetesObjectApi,
  RequestContext,
  ResponseContext,
} from '@kubernetes/client-node';
import { clientNode } from './clientNode';
import type { ClusterRegistry } from './ClusterRegistry';
import { ConnectionPool } from './connectionReuse';

/** The clients of one cluster for one impersonated user (or none). */
export interface Clients {
  objects: KubernetesObjectApi;
  custom: CustomObjectsApi;
  core: CoreV1Api;
}

/**
 * One set of clients per cluster and impersonated user, on one configuration (connection pool,
 * timeout, impersonation); the object client has its own discovery cache.
 */
export class ClusterClients {
  private readonly clients = new Map<string, Clients>();

  private constructor(
    private readonly options: {
      clusters: ClusterRegistry;
      /** Timeout of one request. */
      requestTimeoutMs: number;
    },
  ) {}

  static create(options: ClusterClients['options']): ClusterClients {
    return new ClusterClients(options);
  }

  /** The clients of `cluster`, sending `Impersonate-User: impersonateUser` when given. */
  for(cluster: string, impersonateUser?: string): Clients {
    const key = `${cluster}\u0000${impersonateUser ?? ''}`;
    let pair = this.clients.get(key);
    if (pair) return pair;
    const kubeConfig = this.options.clusters.kubeConfig(cluster);
    const {
      createConfiguration,
      CoreV1Api: Core,
      CustomObjectsApi: CustomObjects,
      KubernetesObjectApi: Objects,
      ServerConfiguration,
    } = clientNode();
    const server = kubeConfig.getCurrentCluster()!.server;
    const timeoutMs = this.options.requestTimeoutMs;
    const pool = new ConnectionPool();
    const configuration = createConfiguration({
      baseServer: new ServerConfiguration(server, {}),
      authMethods: { default: kubeConfig },
      promiseMiddleware: [
        {
          pre: async (context: RequestContext) => {
            context.setSignal(AbortSignal.timeout(timeoutMs));
            pool.reuse(context);
            if (impersonateUser)
              context.setHeaderParam('Impersonate-User', impersonateUser);
            return context;
          },
          post: async (response: ResponseContext) => response,
        },
      ],
    });
    pair = {
      objects: new Objects(configuration),
      custom: new CustomObjects(configuration),
      core: new Core(configuration),
    };
    this.clients.set(key, pair);
    return pair;
  }
}
