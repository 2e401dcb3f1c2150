/**
 * The model-manager backend's REST shapes, shared by the backend, the scaffolder module, the
 * frontend and scripts. Type aliases (not interfaces) so they are plain JSON values, e.g. for a
 * scaffolder checkpoint.
 */
import type {
  JobProgress,
  KServeStatusSummary,
  ModelEndpoint,
} from '../status';
import type { ApplyPolicy, RenderedObject } from '../renderer/types';
import type { ServerOverrides } from '../resolver/types';
import type { Diagnosis } from './diagnosis';
import type { DeploymentAction, ObjectChanges } from './fleet';
import type { TargetSync } from './sync';
import type { z } from 'zod';
import type {
  deployRequestSchema,
  deployTargetSchema,
  renderRequestSchema,
} from './contract/schemas';

export * from './catalog';
export * from './diagnosis';
export * from './fleet';
export * from './models';
export * from './sync';
export * from './preflight';
export * from './gitops';

/** What happened to one object in a deploy, dry run, rollback or undeploy. */
export type ObjectAction =
  | 'created'
  | 'configured'
  | 'unchanged'
  | 'exists'
  /** Deleted and created again: the change touched an immutable field (`message` says which). */
  | 'replaced'
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
  /** Set for `failed`: what went wrong and what to do; for `replaced`: why it was replaced. */
  message?: string;
  /** The Kubernetes reason when the API server said no (Conflict, Invalid, Forbidden, ...). */
  reason?: string;
  /** For conflicts: the other field managers and the fields they own. */
  conflicts?: Array<{ manager: string; field: string }>;
  /** Dry runs: the fields the apply would change on the live object (absent: it would create it). */
  changes?: FieldChange[];
};

/** How a failed deploy failed (decides its HTTP status). */
export type FailureKind =
  /** 409 field-manager conflict: deploy with force to take the fields over */
  | 'conflict'
  /** 422, 400 or SSA's 500 "failed to create typed patch object": never retried */
  | 'invalid'
  /** 401/403 from the cluster */
  | 'forbidden'
  /** 404, e.g. the namespace is missing */
  | 'not-found'
  /** 429, 5xx, connection errors, timeouts after the retry bound */
  | 'unavailable';

/** Where a model is deployed: a cluster of `kubernetes.clusterLocatorMethods` and a namespace. */
export type DeployTarget = z.infer<typeof deployTargetSchema>;

/** The body of `POST /models/:name/deploy` (schema: deployRequestSchema). */
export type DeployRequest = z.infer<typeof deployRequestSchema>;

/**
 * The body of `POST /models/:name/render` (schema: renderRequestSchema). With `cluster` (the GitOps
 * render), the cluster must exist and allow the namespace, as for a deploy.
 */
export type RenderRequest = z.infer<typeof renderRequestSchema>;

/** The answer of `POST /models/:name/render`: the objects a deploy would apply, in order. */
export type RenderResponse = { items: RenderedObject[] };

/** The answer of deploy, rollback and undeploy: data, never a half-thrown error. */
export type DeploymentResult = {
  ok: boolean;
  /**
   * The model's revision recorded for this deploy, rollback, rollout or undeploy (1, 2, 3 ... per
   * model). Dry runs are recorded without a revision.
   */
  revision?: number;
  action: DeploymentAction;
  model: string;
  cluster: string;
  namespace: string;
  serverVersion?: string;
  objects: ObjectResult[];
  /** What went wrong, naming the objects applied and not; set when !ok. */
  message?: string;
  failure?: FailureKind;
  /** The URL KServe reports for the model, when known. */
  endpoint?: string;
};

/** A JSON value (what a field of a Kubernetes object holds). */
export type JsonFieldValue =
  | string
  | number
  | boolean
  | null
  | JsonFieldValue[]
  | { [key: string]: JsonFieldValue };

/** One field that differs between what we render and what is live. */
export type FieldChange = {
  /** e.g. `.spec.template.containers[name=main].image` */
  path: string;
  /** Absent: the field is not rendered (it is only live). */
  rendered?: JsonFieldValue;
  /** Absent: the field is not live. */
  live?: JsonFieldValue;
};

/** The answer of `GET /models/:name/diff`. */
export type DiffResult = {
  model: string;
  cluster: string;
  namespace: string;
  inSync: boolean;
  /**
   * `applyPolicy` says whether an object is the model's own (`apply`: an undeploy deletes it) or
   * shared (`create-if-absent`: the ClusterServingRuntime, the namespace's weights claim; kept).
   */
  objects: Array<{
    kind: string;
    name: string;
    namespace?: string;
    applyPolicy: ApplyPolicy;
    exists: boolean;
    changes: FieldChange[];
  }>;
};

/** One place a model is deployed, in the answer of `GET /models/:name/status`. */
export type ModelStatus = {
  cluster: string;
  namespace: string;
  /** The history revision of the last successful deploy or rollback there. */
  revision: number;
  /** Whether the model's main object (InferenceService or LLMInferenceService) exists. */
  found: boolean;
  summary?: KServeStatusSummary;
  /** Why the object could not be read (the cluster refused or was unreachable). */
  error?: string;
  /** Where clients call the model there (see `selectEndpoint`); `source: 'none'` says why there is no URL. */
  endpoint?: ModelEndpoint;
  /** The weights download Job (OpenVINO models); absent for models without one. */
  download?: DownloadStatus;
  /** What runs there, what a new deploy would apply, and why they differ (the fleet's `sync`). */
  sync?: TargetSync;
  /** Why it is not Ready, in words: for a target not Ready, or any target with `?diagnose=true`. */
  diagnosis?: Diagnosis;
};

/** The weights download Job of a deployed model, read with its pods. */
export type DownloadStatus = {
  /** The Job's name, `<model>-download`. */
  name: string;
  namespace: string;
  /** Whether the Job is on the cluster (it is removed a while after it finishes: `ttlSecondsAfterFinished`). */
  found: boolean;
  /** From `summarizeJob(job, pods)`, when found. */
  progress?: JobProgress;
  /** Why the Job or its pods could not be read. */
  error?: string;
};

/** The answer of `GET /models/:name/status`. */
export type ModelStatusResponse = { items: ModelStatus[] };

/** One row of a model's deploy history (`GET /models/:name/deployments`), newest first. */
export type DeploymentRecord = {
  /** Unique over all models; dry runs have one too. */
  id: number;
  /** Per model: 1, 2, 3 ...; absent for dry runs. */
  revision?: number;
  model: string;
  cluster: string;
  namespace: string;
  action: DeploymentAction;
  outcome: 'succeeded' | 'failed' | 'denied';
  /** Entity ref of the user who asked, e.g. `user:default/guest`. */
  actor: string;
  serverVersion?: string;
  overrides: ServerOverrides;
  manifests: RenderedObject[];
  results: ObjectResult[];
  message?: string;
  /** For a rollback: the revision it rolled back to. */
  rollbackOf?: number;
  /** For a rollout: the rollout it belongs to (the scaffolder task id). */
  rolloutId?: string;
  /** Set when the deploy asked to skip preflight: the checks that failed and were applied past. */
  skippedPreflight?: string[];
  createdAt: string;
};

/** A history row as listed: with what it changed compared with the revision before it. */
export type DeploymentHistoryItem = DeploymentRecord & {
  /**
   * The changes from the previous revision with objects at the same cluster and namespace
   * (`previousRevision` absent: it is the first there). Absent for undeploys and failures.
   */
  changesFromPrevious?: { previousRevision?: number; objects: ObjectChanges[] };
};

/** One cluster models can be deployed to, in the answer of `GET /clusters`. */
export type ClusterSummary = {
  name: string;
  /** The Kubernetes API server URL. */
  url: string;
  /** Where it was configured: `kubernetes.clusterLocatorMethods` or a kubeconfig. */
  source: 'config' | 'kubeconfig';
  /** The base URL clients reach the cluster's AI gateway at, when configured. */
  gatewayBaseUrl?: string;
  /** The only namespaces models may go to; absent: any namespace. */
  namespaces?: string[];
};
