import type {
  DiffResult,
  ExplainRow,
  ModelStatus,
  RenderedObject,
  ResolvedServer,
} from '@model-manager/plugin-model-manager-common';

export interface ModelSummary {
  name: string;
  modelId: string;
  description?: string;
  displayName?: string;
  category: string;
  runtime: string;
  kind: string;
  version?: string;
  versionSource?: string;
  pinnedVersion?: string;
  image: string;
  moe: boolean;
  weightFormat?: string;
  owner?: string;
  tags: string[];
}

export interface RuntimeSummary {
  name: string;
  kind: string;
  versioned: boolean;
  defaultVersion?: string;
  versions: Array<{ version: string; image: string; default: boolean; env: Record<string, unknown>; args: string[] }>;
  env: Record<string, unknown>;
  categories: Array<{ name: string; defaults: Record<string, unknown>; env: Record<string, unknown>; args: string[] }>;
  plumbing: Record<string, { value: unknown; source: string }>;
  servingRuntime?: { file: string; name?: string };
  models: string[];
}

export interface DeploymentRecord {
  revision: number;
  model: string;
  cluster: string;
  namespace: string;
  action: 'deploy' | 'dry-run' | 'rollback' | 'undeploy';
  outcome: 'succeeded' | 'failed' | 'denied';
  actor: string;
  serverVersion?: string;
  message?: string;
  rollbackOf?: number;
  createdAt: string;
  results: Array<{ kind: string; name: string; namespace?: string; action: string; message?: string }>;
}

export interface Overrides {
  serverVersion?: string;
  env?: Record<string, string>;
  args?: string[];
}

export type { DiffResult, ModelStatus };

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
  diff(name: string, target: { cluster: string; namespace: string }): Promise<DiffResult>;
  rollback(name: string, revision: number): Promise<{ ok: boolean; revision: number; message?: string }>;
  listModels(): Promise<ModelSummary[]>;
  getModel(name: string): Promise<ModelSummary>;
  listRuntimes(): Promise<RuntimeSummary[]>;
  getRuntime(name: string): Promise<RuntimeSummary>;
  resolve(name: string, overrides?: Overrides): Promise<{ server: ResolvedServer; explain: ExplainRow[] }>;
  render(name: string, options?: Overrides & { namespace?: string }): Promise<RenderedObject[]>;
  history(name: string): Promise<DeploymentRecord[]>;
}
