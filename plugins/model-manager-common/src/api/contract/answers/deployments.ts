/**
 * The answers of deploy, rollback, undeploy, diff, status and history: what happened to each
 * object, where a model runs and how it is, and the recorded revisions.
 */
import { z } from 'zod';
import {
  applyPolicySchema,
  deploymentActionSchema,
  fieldChangeSchema,
  objectChangesSchema,
  recordedOverridesSchema,
  renderedObjectSchema,
  targetShape,
} from './common';
import { diagnosisSchema } from './diagnosis';
import {
  jobProgressSchema,
  kserveStatusSummarySchema,
  modelEndpointSchema,
} from './status';
import { targetSyncSchema } from './sync';

/**
 * What happened to one object in a deploy, dry run, rollback or undeploy. `replaced`: deleted and
 * created again, the change touched an immutable field (`message` says which).
 */
export const objectActionSchema = z.enum([
  'created',
  'configured',
  'unchanged',
  'exists',
  'replaced',
  'deleted',
  'absent',
  'failed',
  'not-applied',
]);

/** One Kubernetes object of a deploy or undeploy, and what happened to it. */
export const objectResultSchema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  name: z.string(),
  namespace: z.string().optional(),
  action: objectActionSchema,
  /** Set for `failed`: what went wrong and what to do; for `replaced`: why it was replaced. */
  message: z.string().optional(),
  /** The Kubernetes reason when the API server said no (Conflict, Invalid, Forbidden, ...). */
  reason: z.string().optional(),
  /** For conflicts: the other field managers and the fields they own. */
  conflicts: z
    .array(z.object({ manager: z.string(), field: z.string() }))
    .optional(),
  /** Dry runs: the fields the apply would change on the live object (absent: it would create it). */
  changes: z.array(fieldChangeSchema).optional(),
});

/**
 * How a failed deploy failed (decides its HTTP status):
 * - `conflict`: 409 field-manager conflict: deploy with force to take the fields over;
 * - `invalid`: 422, 400 or SSA's 500 "failed to create typed patch object": never retried;
 * - `forbidden`: 401/403 from the cluster;
 * - `not-found`: 404, e.g. the namespace is missing;
 * - `unavailable`: 429, 5xx, connection errors, timeouts after the retry bound.
 */
export const failureKindSchema = z.enum([
  'conflict',
  'invalid',
  'forbidden',
  'not-found',
  'unavailable',
]);

/** The answer of deploy, rollback and undeploy: data, never a half-thrown error. */
export const deploymentResultSchema = z.object({
  ok: z.boolean(),
  /**
   * The model's revision recorded for this deploy, rollback, rollout or undeploy (1, 2, 3 ... per
   * model). Dry runs are recorded without a revision.
   */
  revision: z.number().int().optional(),
  action: deploymentActionSchema,
  ...targetShape,
  serverVersion: z.string().optional(),
  objects: z.array(objectResultSchema),
  /** What went wrong, naming the objects applied and not; set when !ok. */
  message: z.string().optional(),
  failure: failureKindSchema.optional(),
  /** The URL KServe reports for the model, when known. */
  endpoint: z.string().optional(),
});

/** The answer of `GET /models/:name/diff`. */
export const diffResultSchema = z.object({
  ...targetShape,
  inSync: z.boolean(),
  /**
   * `applyPolicy` says whether an object is the model's own (`apply`: an undeploy deletes it) or
   * shared (`create-if-absent`: the ClusterServingRuntime, the namespace's weights claim; kept).
   */
  objects: z.array(
    z.object({
      kind: z.string(),
      name: z.string(),
      namespace: z.string().optional(),
      applyPolicy: applyPolicySchema,
      exists: z.boolean(),
      changes: z.array(fieldChangeSchema),
    }),
  ),
});

/** The weights download Job of a deployed model, read with its pods. */
export const downloadStatusSchema = z.object({
  /** The Job's name, `<model>-download`. */
  name: z.string(),
  namespace: z.string(),
  /** Whether the Job is on the cluster (it is removed a while after it finishes: `ttlSecondsAfterFinished`). */
  found: z.boolean(),
  /** From `summarizeJob(job, pods)`, when found. */
  progress: jobProgressSchema.optional(),
  /** Why the Job or its pods could not be read. */
  error: z.string().optional(),
});

/** One place a model is deployed, in the answer of `GET /models/:name/status`. */
export const modelStatusSchema = z.object({
  cluster: z.string(),
  namespace: z.string(),
  /** The history revision of the last successful deploy or rollback there. */
  revision: z.number().int(),
  /** Whether the model's main object (InferenceService or LLMInferenceService) exists. */
  found: z.boolean(),
  summary: kserveStatusSummarySchema.optional(),
  /** Why the object could not be read (the cluster refused or was unreachable). */
  error: z.string().optional(),
  /** Where clients call the model there (see `selectEndpoint`); `source: 'none'` says why there is no URL. */
  endpoint: modelEndpointSchema.optional(),
  /** The weights download Job (OpenVINO models); absent for models without one. */
  download: downloadStatusSchema.optional(),
  /** What runs there, what a new deploy would apply, and why they differ (the fleet's `sync`). */
  sync: targetSyncSchema.optional(),
  /** Why it is not Ready, in words: for a target not Ready, or any target with `?diagnose=true`. */
  diagnosis: diagnosisSchema.optional(),
});

/** The answer of `GET /models/:name/status`. */
export const modelStatusResponseSchema = z.object({
  items: z.array(modelStatusSchema),
});

/** One row of a model's deploy history (`GET /models/:name/deployments`), newest first. */
export const deploymentRecordSchema = z.object({
  /** Unique over all models; dry runs have one too. */
  id: z.number().int(),
  /** Per model: 1, 2, 3 ...; absent for dry runs. */
  revision: z.number().int().optional(),
  ...targetShape,
  action: deploymentActionSchema,
  outcome: z.enum(['succeeded', 'failed', 'denied']),
  /** Entity ref of the user who asked, e.g. `user:default/guest`. */
  actor: z.string(),
  serverVersion: z.string().optional(),
  overrides: recordedOverridesSchema,
  manifests: z.array(renderedObjectSchema),
  results: z.array(objectResultSchema),
  message: z.string().optional(),
  /** For a rollback: the revision it rolled back to. */
  rollbackOf: z.number().int().optional(),
  /** For a rollout: the rollout it belongs to (the scaffolder task id). */
  rolloutId: z.string().optional(),
  /** Set when the deploy asked to skip preflight: the checks that failed and were applied past. */
  skippedPreflight: z.array(z.string()).optional(),
  createdAt: z.string(),
});

/** A history row as listed: with what it changed compared with the revision before it. */
export const deploymentHistoryItemSchema = deploymentRecordSchema.extend({
  /**
   * The changes from the previous revision with objects at the same cluster and namespace
   * (`previousRevision` absent: it is the first there). Absent for undeploys and failures.
   */
  changesFromPrevious: z
    .object({
      previousRevision: z.number().int().optional(),
      objects: z.array(objectChangesSchema),
    })
    .optional(),
});

/** The answer of `GET /models/:name/deployments`, newest first. */
export const deploymentHistoryResponseSchema = z.object({
  items: z.array(deploymentHistoryItemSchema),
});
