/**
 * The model-manager backend's REST shapes, as this module reads them. Declared here (the backend
 * plugin is not a dependency of a scaffolder module); they follow
 * `plugins/model-manager-backend/src/service/ModelManagerService.ts`.
 *
 * Type aliases, not interfaces, so that they are JSON values a scaffolder checkpoint can store.
 */

/** What happened to one object in a deploy, dry run or undeploy. */
export type ObjectAction =
  | 'created'
  | 'configured'
  | 'unchanged'
  | 'exists'
  | 'deleted'
  | 'absent'
  | 'failed'
  | 'not-applied';

/** One Kubernetes object of a deploy or undeploy, and what happened to it. */
export type ObjectResult = {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  action: ObjectAction;
  /** Set for `failed` and `not-applied`: what went wrong and what to do. */
  message?: string;
  /** The Kubernetes reason when the API server said no (Conflict, Invalid, Forbidden, ...). */
  reason?: string;
  /** For conflicts: the other field managers and the fields they own. */
  conflicts?: Array<{ manager: string; field: string }>;
};

/** The answer of `POST /models/:name/deploy` and `DELETE /models/:name/deployment`. */
export type DeploymentResult = {
  ok: boolean;
  /** The history revision recorded for this deploy, dry run or undeploy. */
  revision: number;
  action: 'deploy' | 'dry-run' | 'rollback' | 'undeploy';
  model: string;
  cluster: string;
  namespace: string;
  serverVersion?: string;
  objects: ObjectResult[];
  /** What went wrong, naming the objects applied and not; set when !ok. */
  message?: string;
  failure?: string;
  /** The URL KServe reports for the model, when known. */
  endpoint?: string;
};

/** Where a model is deployed: a cluster of `kubernetes.clusterLocatorMethods` and a namespace. */
export type DeployTarget = {
  cluster: string;
  namespace: string;
};

/** The body of `POST /models/:name/deploy`. */
export type DeployRequest = DeployTarget & {
  serverVersion?: string;
  /** `null` removes an inherited variable. */
  env?: Record<string, string | null>;
  args?: string[];
  /** Server-side dry run: the API server validates everything, nothing is applied. */
  dryRun?: boolean;
  /** Take over fields owned by another field manager. */
  force?: boolean;
};

/** The answer of `GET /models/:name/diff`: the rendered objects and whether they exist. */
export type DiffResult = {
  model: string;
  cluster: string;
  namespace: string;
  inSync: boolean;
  objects: Array<{
    kind: string;
    name: string;
    namespace?: string;
    exists: boolean;
    changes: Array<{ path: string; rendered?: unknown; live?: unknown }>;
  }>;
};
