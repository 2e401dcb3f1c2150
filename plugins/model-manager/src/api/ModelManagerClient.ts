import { rolloutPlanParams } from '@model-manager/plugin-model-manager-common';
import {
  createApiRef,
  type DiscoveryApi,
  type FetchApi,
} from '@backstage/core-plugin-api';
import { ResponseError } from '@backstage/errors';
import {
  envQueryParams,
  ModelManagerRestClient,
  type QueryValue,
} from '@model-manager/plugin-model-manager-common';
import type {
  CatalogStatus,
  DeploymentResult,
  DiffResult,
  FleetQuery,
  FleetResponse,
  ModelListQuery,
  ModelListResponse,
  ModelSummary,
  PreflightResponse,
  RenderRequest,
  ResolveResponse,
  RollbackRequest,
  RolloutPlan,
  RolloutPlanQuery,
  RuntimeSummary,
  RevisionDiff,
  PullRequestReadiness,
} from '@model-manager/plugin-model-manager-common';
import { readFleetEvents } from '@model-manager/plugin-model-manager-common';
import type { ModelManagerApi, Overrides } from './types';

export const modelManagerApiRef = createApiRef<ModelManagerApi>({
  id: 'plugin.model-manager.service',
});

/**
 * Talks to the model-manager backend through the portal's discovery and authenticated fetch: the
 * contract's one client (`ModelManagerRestClient`) with the browser's transport.
 */
export class ModelManagerClient implements ModelManagerApi {
  private readonly rest: ModelManagerRestClient;

  private constructor(
    private readonly options: {
      discoveryApi: DiscoveryApi;
      fetchApi: FetchApi;
    },
  ) {
    this.rest = ModelManagerRestClient.create({
      fetch: (url, init) => options.fetchApi.fetch(url, init),
      baseUrl: () => options.discoveryApi.getBaseUrl('model-manager'),
      toError: response => ResponseError.fromResponse(response),
    });
  }

  static create(options: {
    discoveryApi: DiscoveryApi;
    fetchApi: FetchApi;
  }): ModelManagerClient {
    return new ModelManagerClient(options);
  }

  catalogStatus(): Promise<CatalogStatus> {
    return this.rest.call('catalogStatus', {});
  }

  async listModels(): Promise<ModelSummary[]> {
    return (await this.rest.call('listModels', {})).items;
  }

  // The backend answers with an ETag and `Cache-Control: no-cache`: the browser's HTTP cache
  // revalidates with If-None-Match and an unchanged page comes back as a 304 without a body.
  queryModels(query: ModelListQuery): Promise<ModelListResponse> {
    return this.rest.call('listModels', { query });
  }

  getModel(name: string): Promise<ModelSummary> {
    return this.rest.call('getModel', { params: { name } });
  }

  async listRuntimes() {
    return (await this.rest.call('listRuntimes', {})).items;
  }

  getRuntime(name: string): Promise<RuntimeSummary> {
    return this.rest.call('getRuntime', { params: { name } });
  }

  resolve(name: string, overrides: Overrides = {}): Promise<ResolveResponse> {
    return this.rest.call('resolve', {
      params: { name },
      query: overridesQuery(overrides),
    });
  }

  preflight(
    name: string,
    target: { cluster: string; namespace: string },
    overrides: Overrides = {},
  ): Promise<PreflightResponse> {
    return this.rest.call('preflight', {
      params: { name },
      query: { ...overridesQuery(overrides), ...target },
    });
  }

  pullRequestReadiness(repoUrl: string): Promise<PullRequestReadiness> {
    return this.rest.call('pullRequestReadiness', { query: { repoUrl } });
  }

  async render(name: string, options: RenderRequest = {}) {
    return (await this.rest.call('render', { params: { name }, body: options }))
      .items;
  }

  async status(name: string) {
    return (await this.rest.call('status', { params: { name } })).items;
  }

  diff(
    name: string,
    target: { cluster: string; namespace: string },
  ): Promise<DiffResult> {
    return this.rest.call('diff', { params: { name }, query: target });
  }

  rollback(
    name: string,
    revision: number,
    options: { dryRun?: boolean } = {},
  ): Promise<DeploymentResult> {
    const body: RollbackRequest = options.dryRun
      ? { revision, dryRun: true }
      : { revision };
    return this.rest.call('rollback', { params: { name }, body });
  }

  undeploy(
    name: string,
    target: { cluster: string; namespace: string },
  ): Promise<DeploymentResult> {
    return this.rest.call('undeploy', { params: { name }, query: target });
  }

  async listClusters() {
    return (await this.rest.call('listClusters', {})).items;
  }

  async history(name: string) {
    return (await this.rest.call('history', { params: { name } })).items;
  }

  revisionDiff(name: string, revision: number): Promise<RevisionDiff> {
    return this.rest.call('revisionDiff', { params: { name, revision } });
  }

  fleet(query: Omit<FleetQuery, 'model'> = {}): Promise<FleetResponse> {
    return this.rest.call('fleet', { query });
  }

  modelFleet(name: string): Promise<FleetResponse> {
    return this.rest.call('modelFleet', { params: { name } });
  }

  rolloutPlan(query: RolloutPlanQuery): Promise<RolloutPlan> {
    return this.rest.call('rolloutPlan', { query: rolloutPlanParams(query) });
  }

  /**
   * Every reader of a page (the Deployments table, the Serving tab's cards, the runtime page's
   * matrix) shares one `GET /fleet/events` stream: a browser keeps at most six HTTP/1.1
   * connections per host, and a stream holds one for as long as it is open. It opens with the
   * first reader and closes after the last.
   */
  watchFleet(onChange: (clusters: string[]) => void): () => void {
    this.fleetReaders.add(onChange);
    this.stopFleetEvents ??= readFleetEvents({
      open: async signal => {
        const base = await this.options.discoveryApi.getBaseUrl(
          'model-manager',
        );
        return this.options.fetchApi.fetch(`${base}/fleet/events`, { signal });
      },
      onChange: clusters => this.fleetReaders.forEach(r => r(clusters)),
    });
    return () => {
      this.fleetReaders.delete(onChange);
      if (this.fleetReaders.size === 0) {
        this.stopFleetEvents?.();
        this.stopFleetEvents = undefined;
      }
    };
  }

  private readonly fleetReaders = new Set<(clusters: string[]) => void>();
  private stopFleetEvents?: () => void;
}

/** A deploy's overrides as query parameters (`serverVersion`, `env=K=V`, `arg=A`), in that order. */
function overridesQuery(overrides: Overrides): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  if (overrides.serverVersion) query.serverVersion = overrides.serverVersion;
  for (const [k, v] of envQueryParams(overrides.env))
    query[k] = [...((query[k] as string[] | undefined) ?? []), v];
  if (overrides.args?.length) query.arg = overrides.args;
  return query;
}
