import type { RequestContext as KubeRequestContext } from '@kubernetes/client-node';
import { clientNode } from '../kubernetes/clientNode';
import type { ClusterRegistry } from '../kubernetes';
import { ConnectionPool } from '../kubernetes/connectionReuse';
import type { ClusterReads, Read } from './types';

/**
 * Asks kube-apiserver for an object's metadata alone (k8s.io/apiserver
 * pkg/endpoints/handlers/response.go `asPartialObjectMetadata`): a Secret is checked for existence
 * without its data ever being sent.
 */
export const PARTIAL_METADATA_ACCEPT =
  'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

export interface PreflightReaderOptions {
  clusters: ClusterRegistry;
  /** Timeout of one GET (default 5 s). */
  requestTimeoutMs?: number;
}

/**
 * Plain GETs against the clusters for preflight: discovery documents, lists and objects, as JSON.
 * A session reads each path once per cluster (a rollout plan's targets share their cluster's
 * nodes, storage classes and discovery, and their namespace's quotas); nothing is retried (a
 * check that cannot read says `unknown`), nothing is cached past the session.
 */
export class PreflightReader {
  private readonly pools = new Map<string, ConnectionPool>();
  private readonly timeoutMs: number;

  private constructor(private readonly options: PreflightReaderOptions) {
    this.timeoutMs = options.requestTimeoutMs ?? 5000;
  }

  static create(options: PreflightReaderOptions): PreflightReader {
    return new PreflightReader(options);
  }

  /** GETs remembered for the session's life (one preflight, or one rollout plan). */
  session(impersonateUser?: string): ClusterReads {
    const memo = new Map<string, Promise<Read>>();
    return {
      get: (cluster, path, accept) => {
        const key = `${cluster}\u0000${path}\u0000${accept ?? ''}`;
        let read = memo.get(key);
        if (!read) {
          read = this.get(cluster, path, accept, impersonateUser);
          memo.set(key, read);
        }
        return read;
      },
    };
  }

  private async get(
    cluster: string,
    path: string,
    accept: 'metadata' | undefined,
    impersonateUser: string | undefined,
  ): Promise<Read> {
    const { RequestContext, HttpMethod, IsomorphicFetchHttpLibrary } =
      clientNode();
    try {
      const kubeConfig = this.options.clusters.kubeConfig(cluster);
      const server = kubeConfig.getCurrentCluster()!.server.replace(/\/+$/, '');
      const context: KubeRequestContext = new RequestContext(
        `${server}${path}`,
        HttpMethod.GET,
      );
      context.setHeaderParam(
        'Accept',
        accept === 'metadata' ? PARTIAL_METADATA_ACCEPT : 'application/json',
      );
      await kubeConfig.applySecurityAuthentication(context);
      if (impersonateUser)
        context.setHeaderParam('Impersonate-User', impersonateUser);
      let pool = this.pools.get(cluster);
      if (!pool) this.pools.set(cluster, (pool = new ConnectionPool()));
      pool.reuse(context);
      context.setSignal(AbortSignal.timeout(this.timeoutMs));
      const response = await new IsomorphicFetchHttpLibrary()
        .send(context)
        .toPromise();
      const text = await response.body.text();
      const status = response.httpStatusCode;
      if (status === 404) return { ok: true, body: null };
      if (status >= 200 && status < 300)
        return { ok: true, body: JSON.parse(text) };
      let message = `HTTP ${status}`;
      try {
        message = JSON.parse(text).message ?? message;
      } catch {
        // not a Status body
      }
      return { ok: false, status, message };
    } catch (e) {
      return { ok: false, message: (e as Error).message };
    }
  }
}
