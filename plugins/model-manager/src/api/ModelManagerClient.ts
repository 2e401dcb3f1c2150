import { rolloutPlanParams } from '@model-manager/plugin-model-manager-common';
import {
  createApiRef,
  type DiscoveryApi,
  type FetchApi,
} from '@backstage/core-plugin-api';
import { ResponseError } from '@backstage/errors';
import { envQueryParams } from '@model-manager/plugin-model-manager-common';
import type {
  CatalogStatus,
  ClusterListResponse,
  DeploymentHistoryResponse,
  DeploymentResult,
  DiffResult,
  FleetQuery,
  FleetResponse,
  ModelListQuery,
  ModelListResponse,
  ModelStatusResponse,
  ModelSummary,
  PreflightResponse,
  RenderRequest,
  RenderResponse,
  ResolveResponse,
  RollbackRequest,
  RolloutPlan,
  RolloutPlanQuery,
  RuntimeListResponse,
  RuntimeSummary,
  RevisionDiff,
} from '@model-manager/plugin-model-manager-common';
import type { ModelManagerApi, Overrides } from './types';

/** `?a=1&b=2` of the set values, or '' when none is set. */
function queryString(
  query: Record<string, string | number | undefined>,
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') params.set(key, String(value));
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

export const modelManagerApiRef = createApiRef<ModelManagerApi>({
  id: 'plugin.model-manager.service',
});

/** Talks to the model-manager backend through the portal's discovery and authenticated fetch. */
export class ModelManagerClient implements ModelManagerApi {
  private constructor(
    private readonly options: {
      discoveryApi: DiscoveryApi;
      fetchApi: FetchApi;
    },
  ) {}

  static create(options: {
    discoveryApi: DiscoveryApi;
    fetchApi: FetchApi;
  }): ModelManagerClient {
    return new ModelManagerClient(options);
  }

  catalogStatus() {
    return this.get<CatalogStatus>('/status');
  }

  async listModels(): Promise<ModelSummary[]> {
    return (await this.get<ModelListResponse>('/models')).items;
  }

  // The backend answers with an ETag and `Cache-Control: no-cache`: the browser's HTTP cache
  // revalidates with If-None-Match and an unchanged page comes back as a 304 without a body.
  queryModels(query: ModelListQuery) {
    return this.get<ModelListResponse>(`/models${queryString(query)}`);
  }

  getModel(name: string) {
    return this.get<ModelSummary>(`/models/${encodeURIComponent(name)}`);
  }

  async listRuntimes() {
    return (await this.get<RuntimeListResponse>('/runtimes')).items;
  }

  getRuntime(name: string) {
    return this.get<RuntimeSummary>(`/runtimes/${encodeURIComponent(name)}`);
  }

  resolve(name: string, overrides: Overrides = {}) {
    const qs = overridesQuery(overrides).toString();
    return this.get<ResolveResponse>(
      `/models/${encodeURIComponent(name)}/resolved${qs ? `?${qs}` : ''}`,
    );
  }

  preflight(
    name: string,
    target: { cluster: string; namespace: string },
    overrides: Overrides = {},
  ) {
    const query = overridesQuery(overrides);
    query.set('cluster', target.cluster);
    query.set('namespace', target.namespace);
    return this.get<PreflightResponse>(
      `/models/${encodeURIComponent(name)}/preflight?${query}`,
    );
  }

  async render(name: string, options: RenderRequest = {}) {
    return (
      await this.request<RenderResponse>(
        `/models/${encodeURIComponent(name)}/render`,
        { method: 'POST', body: options },
      )
    ).items;
  }

  async status(name: string) {
    return (
      await this.get<ModelStatusResponse>(
        `/models/${encodeURIComponent(name)}/status`,
      )
    ).items;
  }

  diff(name: string, target: { cluster: string; namespace: string }) {
    const qs = new URLSearchParams(target).toString();
    return this.get<DiffResult>(
      `/models/${encodeURIComponent(name)}/diff?${qs}`,
    );
  }

  rollback(name: string, revision: number, options: { dryRun?: boolean } = {}) {
    const body: RollbackRequest = options.dryRun
      ? { revision, dryRun: true }
      : { revision };
    return this.request<DeploymentResult>(
      `/models/${encodeURIComponent(name)}/rollback`,
      { method: 'POST', body },
    );
  }

  undeploy(name: string, target: { cluster: string; namespace: string }) {
    const qs = new URLSearchParams(target).toString();
    return this.request<DeploymentResult>(
      `/models/${encodeURIComponent(name)}/deployment?${qs}`,
      { method: 'DELETE' },
    );
  }

  async listClusters() {
    return (await this.get<ClusterListResponse>('/clusters')).items;
  }

  async history(name: string) {
    return (
      await this.get<DeploymentHistoryResponse>(
        `/models/${encodeURIComponent(name)}/deployments`,
      )
    ).items;
  }

  revisionDiff(name: string, revision: number) {
    return this.get<RevisionDiff>(
      `/models/${encodeURIComponent(name)}/deployments/${revision}/diff`,
    );
  }

  fleet(query: Omit<FleetQuery, 'model'> = {}) {
    return this.get<FleetResponse>(`/fleet${queryString(query)}`);
  }

  modelFleet(name: string) {
    return this.get<FleetResponse>(`/models/${encodeURIComponent(name)}/fleet`);
  }

  rolloutPlan(query: RolloutPlanQuery) {
    return this.get<RolloutPlan>(
      `/rollouts/plan${queryString(rolloutPlanParams(query))}`,
    );
  }

  watchFleet(onChange: (clusters: string[]) => void): () => void {
    return readFleetEvents({
      open: async signal => {
        const base = await this.options.discoveryApi.getBaseUrl(
          'model-manager',
        );
        return this.options.fetchApi.fetch(`${base}/fleet/events`, { signal });
      },
      onChange,
    });
  }

  private get<T>(path: string) {
    return this.request<T>(path, { method: 'GET' });
  }

  private async request<T>(
    path: string,
    init: { method: string; body?: unknown },
  ): Promise<T> {
    const base = await this.options.discoveryApi.getBaseUrl('model-manager');
    const response = await this.options.fetchApi.fetch(`${base}${path}`, {
      method: init.method,
      headers:
        init.body !== undefined
          ? { 'Content-Type': 'application/json' }
          : undefined,
      body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    });
    if (!response.ok) throw await ResponseError.fromResponse(response);
    return (await response.json()) as T;
  }
}

/**
 * Reads the Server-Sent Events of `GET /fleet/events` (with the Backstage token: `fetch`, not
 * `EventSource`, which cannot send one) and calls `onChange` for each `fleet` event. Reconnects 5 s
 * after the stream ends or fails, except when the backend has no such endpoint (404: no watch
 * cache); the returned function stops it.
 */
export function readFleetEvents(options: {
  open: (signal: AbortSignal) => Promise<Response>;
  onChange: (clusters: string[]) => void;
  retryMs?: number;
}): () => void {
  const controller = new AbortController();
  const { signal } = controller;
  const run = async () => {
    while (!signal.aborted) {
      try {
        const response = await options.open(signal);
        if (response.status === 404) return;
        if (response.ok && response.body) {
          const reader = response.body
            .pipeThrough(new TextDecoderStream())
            .getReader();
          let text = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            text += value;
            for (
              let end = text.indexOf('\n\n');
              end >= 0;
              end = text.indexOf('\n\n')
            ) {
              const block = text.slice(0, end);
              text = text.slice(end + 2);
              const data = /^event: fleet\ndata: (.*)$/m.exec(block);
              if (data) options.onChange(JSON.parse(data[1]).clusters ?? []);
            }
          }
        }
      } catch {
        // The stream failed (backend restarted, network): try again below.
      }
      if (signal.aborted) return;
      await new Promise(resolve =>
        setTimeout(resolve, options.retryMs ?? 5000),
      );
    }
  };
  void run();
  return () => controller.abort();
}

/** A deploy's overrides as query parameters (`serverVersion`, `env=K=V`, `arg=A`). */
function overridesQuery(overrides: Overrides): URLSearchParams {
  const query = new URLSearchParams();
  if (overrides.serverVersion)
    query.set('serverVersion', overrides.serverVersion);
  for (const [k, v] of envQueryParams(overrides.env)) query.append(k, v);
  for (const a of overrides.args ?? []) query.append('arg', a);
  return query;
}
