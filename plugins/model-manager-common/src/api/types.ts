/**
 * The model-manager backend's REST shapes, shared by the backend, the scaffolder module, the
 * frontend and scripts. Type aliases (not interfaces) so they are plain JSON values, e.g. for a
 * scaffolder checkpoint.
 */
import type { z } from 'zod';
import type {
  deployRequestSchema,
  deployTargetSchema,
  renderRequestSchema,
} from './contract/schemas';
import type { fieldChangeSchema } from './contract/answers/common';
import type { clusterSummarySchema } from './contract/answers/catalog';
import type {
  deploymentHistoryItemSchema,
  deploymentRecordSchema,
  deploymentResultSchema,
  diffResultSchema,
  downloadStatusSchema,
  failureKindSchema,
  modelStatusResponseSchema,
  modelStatusSchema,
  objectActionSchema,
  objectResultSchema,
} from './contract/answers/deployments';

export type { JsonFieldValue } from './contract/answers/common';

export * from './catalog';
export * from './diagnosis';
export * from './fleet';
export * from './models';
export * from './sync';
export * from './preflight';
export * from './gitops';

/** What happened to one object in a deploy, dry run, rollback or undeploy (see objectActionSchema). */
export type ObjectAction = z.infer<typeof objectActionSchema>;

/** One Kubernetes object of a deploy or undeploy, and what happened to it. */
export type ObjectResult = z.infer<typeof objectResultSchema>;

/** How a failed deploy failed (decides its HTTP status; see failureKindSchema). */
export type FailureKind = z.infer<typeof failureKindSchema>;

/** Where a model is deployed: a cluster of `kubernetes.clusterLocatorMethods` and a namespace. */
export type DeployTarget = z.infer<typeof deployTargetSchema>;

/** The body of `POST /models/:name/deploy` (schema: deployRequestSchema). */
export type DeployRequest = z.infer<typeof deployRequestSchema>;

/**
 * The body of `POST /models/:name/render` (schema: renderRequestSchema). With `cluster` (the GitOps
 * render), the cluster must exist and allow the namespace, as for a deploy.
 */
export type RenderRequest = z.infer<typeof renderRequestSchema>;

/** The answer of deploy, rollback and undeploy: data, never a half-thrown error. */
export type DeploymentResult = z.infer<typeof deploymentResultSchema>;

/** One field that differs between what we render and what is live. */
export type FieldChange = z.infer<typeof fieldChangeSchema>;

/** The answer of `GET /models/:name/diff`. */
export type DiffResult = z.infer<typeof diffResultSchema>;

/** One place a model is deployed, in the answer of `GET /models/:name/status`. */
export type ModelStatus = z.infer<typeof modelStatusSchema>;

/** The weights download Job of a deployed model, read with its pods. */
export type DownloadStatus = z.infer<typeof downloadStatusSchema>;

/** The answer of `GET /models/:name/status`. */
export type ModelStatusResponse = z.infer<typeof modelStatusResponseSchema>;

/** One row of a model's deploy history (`GET /models/:name/deployments`), newest first. */
export type DeploymentRecord = z.infer<typeof deploymentRecordSchema>;

/** A history row as listed: with what it changed compared with the revision before it. */
export type DeploymentHistoryItem = z.infer<typeof deploymentHistoryItemSchema>;

/** One cluster models can be deployed to, in the answer of `GET /clusters`. */
export type ClusterSummary = z.infer<typeof clusterSummarySchema>;
