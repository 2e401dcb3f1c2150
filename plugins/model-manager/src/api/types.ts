import type {
  ClusterSummary,
  DeploymentHistoryItem,
  DeploymentResult,
  DiffResult,
  ExplainRow,
  FleetQuery,
  FleetResponse,
  ModelListQuery,
  ModelListResponse,
  ModelStatus,
  ModelSummary,
  RenderedObject,
  ResolvedServer,
  RolloutPlan,
  RolloutPlanQuery,
} from '@model-manager/plugin-model-manager-common';

export interface RuntimeSummary {
  name: string;
  kind: string;
  versioned: boolean;
  defaultVersion?: string;
  versions: Array<{
    version: string;
    image: string;
    default: boolean;
    env: Record<string, unknown>;
    args: string[];
  }>;
  env: Record<string, unknown>;
  categories: Array<{
    name: string;
    defaults: Record<string, unknown>;
    env: Record<string, unknown>;
    args: string[];
  }>;
  plumbing: Record<string, { value: unknown; source: string }>;
  servingRuntime?: { file: string; name?: string };
  models: string[];
}

export interface Overrides {
  serverVersion?: string;
  env?: Record<string, string>;
  args?: string[];
}

export type {
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
  RolloutPlan,
  RolloutPlanQuery,
};

/** Whether the last reload of models.yaml worked; when not, the last good catalog is served. */
export interface CatalogStatus {
  ok: boolean;
  at: string;
  message?: string;
  /** How many models and runtimes the served (last good) catalog has. */
  models?: number;
  runtimes?: number;
}

export interface ModelManagerApi {
  catalogStatus(): Promise<CatalogStatus>;
  status(name: string): Promise<ModelStatus[]>;
  diff(
    name: string,
    target: { cluster: string; namespace: string },
  ): Promise<DiffResult>;
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
  resolve(
    name: string,
    overrides?: Overrides,
  ): Promise<{ server: ResolvedServer; explain: ExplainRow[] }>;
  render(
    name: string,
    options?: Overrides & { namespace?: string },
  ): Promise<RenderedObject[]>;
  history(name: string): Promise<DeploymentHistoryItem[]>;
  /** Every deployment target, live state, drift and outdated fields; unreachable clusters in `errors`. */
  fleet(query?: Omit<FleetQuery, 'model'>): Promise<FleetResponse>;
  /** The targets of one model. */
  modelFleet(name: string): Promise<FleetResponse>;
  /** The targets a rollout of a runtime (version) would move, and those that would stay and why. */
  rolloutPlan(query: RolloutPlanQuery): Promise<RolloutPlan>;
  /** The clusters models can be deployed to, with the namespaces each allows. */
  listClusters(): Promise<ClusterSummary[]>;
}
