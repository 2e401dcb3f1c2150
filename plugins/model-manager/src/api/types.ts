import type {
  CatalogStatus,
  ClusterSummary,
  DeploymentHistoryItem,
  DeploymentResult,
  DiffResult,
  FleetQuery,
  FleetResponse,
  ModelListQuery,
  ModelListResponse,
  ModelStatus,
  ModelSummary,
  PreflightResponse,
  RenderedObject,
  RenderRequest,
  ResolveResponse,
  RolloutPlan,
  RolloutPlanQuery,
  RuntimeSummary,
  ServerOverrides,
  RevisionDiff,
  PullRequestReadiness,
} from '@model-manager/plugin-model-manager-common';

/** The REST shapes are declared once, in the common package; re-exported for the plugin's users. */
export type {
  CatalogStatus,
  ClusterSummary,
  ModelListQuery,
  ModelListResponse,
  ModelSummary,
  DeploymentHistoryItem,
  DeploymentResult,
  DiffResult,
  FleetQuery,
  FleetResponse,
  ModelStatus,
  PreflightResponse,
  ResolveResponse,
  RolloutPlan,
  RolloutPlanQuery,
  RuntimeSummary,
};

/** What a deploy form overrides (`serverVersion`, `env`, `args`). */
export type Overrides = ServerOverrides;

export interface ModelManagerApi {
  catalogStatus(): Promise<CatalogStatus>;
  status(name: string): Promise<ModelStatus[]>;
  diff(
    name: string,
    target: { cluster: string; namespace: string },
  ): Promise<DiffResult>;
  /** Whether the target would accept and run the model with these overrides (`GET .../preflight`). */
  preflight?(
    name: string,
    target: { cluster: string; namespace: string },
    overrides?: Overrides,
  ): Promise<PreflightResponse>;
  /** With `dryRun`, nothing is applied and `objects[].changes` lists what the rollback would change. */
  rollback(
    name: string,
    revision: number,
    options?: { dryRun?: boolean },
  ): Promise<DeploymentResult>;
  /** Deletes the model's objects from one target (`DELETE /models/:name/deployment`). */
  undeploy(
    name: string,
    target: { cluster: string; namespace: string },
  ): Promise<DeploymentResult>;
  /** Every model of the served catalog (what the CLI reads). */
  listModels(): Promise<ModelSummary[]>;
  /** One page of the models matching the filters, sorted by the backend, with the total. */
  queryModels(query: ModelListQuery): Promise<ModelListResponse>;
  getModel(name: string): Promise<ModelSummary>;
  listRuntimes(): Promise<RuntimeSummary[]>;
  getRuntime(name: string): Promise<RuntimeSummary>;
  resolve(name: string, overrides?: Overrides): Promise<ResolveResponse>;
  render(name: string, options?: RenderRequest): Promise<RenderedObject[]>;
  history(name: string): Promise<DeploymentHistoryItem[]>;
  /** One revision against the previous one ("what this deploy changed") and against live. */
  revisionDiff(name: string, revision: number): Promise<RevisionDiff>;
  /** Every deployment target, live state, drift and outdated fields; unreachable clusters in `errors`. */
  fleet(query?: Omit<FleetQuery, 'model'>): Promise<FleetResponse>;
  /**
   * Calls `onChange` with the clusters whose managed objects changed, as the backend's watch cache
   * pushes them (`GET /fleet/events`); returns the function that stops listening. Absent, or never
   * calling, when the backend has no watch cache.
   */
  watchFleet?(onChange: (clusters: string[]) => void): () => void;
  /** The targets of one model. */
  modelFleet(name: string): Promise<FleetResponse>;
  /** The targets a rollout of a runtime (version) would move, and those that would stay and why. */
  rolloutPlan(query: RolloutPlanQuery): Promise<RolloutPlan>;
  /** The clusters models can be deployed to, with the namespaces each allows. */
  listClusters(): Promise<ClusterSummary[]>;
  /** Whether the portal could open a pull request on a repository (RepoUrlPicker's value). */
  pullRequestReadiness?(repoUrl: string): Promise<PullRequestReadiness>;
}
