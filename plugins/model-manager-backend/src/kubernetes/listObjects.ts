import type { KubernetesObject } from '@kubernetes/client-node';
import type { RenderedObject } from '@model-manager/plugin-model-manager-common';
import type { Clients } from './ClusterClients';
import { KubernetesApiError } from './KubernetesApiError';

/** Runs a call with the applier's retries, naming `object` in its log lines. */
export type Retrying = <T>(
  call: () => Promise<T>,
  object: { kind: string; name: string; namespace?: string },
) => Promise<T>;

/**
 * Every object of one kind in the cluster (all namespaces, or `options.namespace`) matching a
 * label selector, read in pages of 500. Items carry `apiVersion` and `kind` even where the API
 * server leaves them out.
 *
 * Kinds of an API group (the KServe and gateway CRDs, Jobs) are listed through client-node's
 * `CustomObjectsApi`, which answers the list as the server sent it. `KubernetesObjectApi.list`
 * does not serve them: it reads a list of a kind it has no model for (every CRD) as one
 * `KubernetesObject`, whose `metadata` it decodes as `V1ObjectMeta`, dropping the list's
 * `continue` token (client-node 1.4.0, dist/serializer.js `KubernetesObject.fromUnknown`), so only
 * the first page was read: a cluster with more than 500 objects of a kind showed 500. Core kinds
 * (`v1`) have typed lists that keep the token (`V1ListMeta._continue`).
 * @returns undefined when the cluster does not serve the kind (its CRD is not installed).
 */
export async function listObjects(
  { objects: api, custom }: Clients,
  retrying: Retrying,
  type: { apiVersion: string; kind: string },
  labelSelector: string,
  namespace: string | undefined,
): Promise<KubernetesObject[] | undefined> {
  const items: KubernetesObject[] = [];
  const label = {
    kind: type.kind,
    name: `(list ${labelSelector})`,
  } as RenderedObject;
  const slash = type.apiVersion.indexOf('/');
  const group = slash >= 0 ? type.apiVersion.slice(0, slash) : '';
  const version = type.apiVersion.slice(slash + 1);
  let continueToken: string | undefined;
  try {
    // The plural name, from the cluster's discovery (cached by the client).
    const resource = group
      ? await retrying(
          () =>
            (
              api as unknown as {
                resource(
                  apiVersion: string,
                  kind: string,
                ): Promise<{ name: string } | undefined>;
              }
            ).resource(type.apiVersion, type.kind),
          label,
        )
      : undefined;
    if (group && !resource) return undefined;
    do {
      const pageToken = continueToken;
      const page: {
        items: KubernetesObject[];
        metadata?: { continue?: string; _continue?: string };
      } = await retrying(() => {
        if (!resource)
          return api.list(
            type.apiVersion,
            type.kind,
            namespace,
            undefined,
            undefined,
            undefined,
            undefined,
            labelSelector,
            500,
            pageToken,
          );
        const query = {
          group,
          version,
          plural: resource.name,
          labelSelector,
          limit: 500,
          ...(pageToken ? { _continue: pageToken } : {}),
        };
        return namespace
          ? custom.listNamespacedCustomObject({ ...query, namespace })
          : custom.listClusterCustomObject(query);
      }, label);
      for (const item of page.items)
        items.push({ ...item, apiVersion: type.apiVersion, kind: type.kind });
      continueToken =
        page.metadata?.continue || page.metadata?._continue || undefined;
    } while (continueToken);
  } catch (e) {
    if (e instanceof KubernetesApiError && e.kind === 'not-found')
      return undefined;
    throw e;
  }
  return items;
}
