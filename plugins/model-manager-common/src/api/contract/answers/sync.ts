/**
 * The sync state of one deployment target (model, cluster, namespace), computed once by the
 * backend's `syncState` and shown the same way by the Serving tab, the Deployments page, the
 * runtime page, history diffs, `/fleet`, the rollout plan and the CLI.
 */
import { z } from 'zod';
import {
  deploymentActionSchema,
  jsonFieldValueSchema,
  objectChangesSchema,
  recordedOverridesSchema,
  renderedObjectSchema,
} from './common';

/**
 * Why what runs differs from what a new deploy would apply:
 * - `request-pin`: the revision that applied it was asked for a server version, env or args;
 * - `rollout`: a rollout moved the target to a version (`SyncDifference.text` names it);
 * - `drift`: someone changed the live object after it was applied (kubectl edit);
 * - `catalog-change`: models.yaml (or a runtime) changed since: applying the same request again
 *   would give something else (e.g. the version's image changed);
 * - `not-recorded`: no revision is on record (applied by the CLI, GitOps or another portal), so
 *   the live value is all that is known.
 */
export const syncReasonSchema = z.enum([
  'request-pin',
  'rollout',
  'drift',
  'catalog-change',
  'not-recorded',
]);

/** The revision that applied what runs, with its overrides. */
export const appliedRevisionSchema = z.object({
  revision: z.number().int(),
  action: deploymentActionSchema,
  actor: z.string(),
  at: z.string(),
  overrides: recordedOverridesSchema,
  serverVersion: z.string().optional(),
  /** For a rollout: the rollout (scaffolder task id). */
  rolloutId: z.string().optional(),
});

/**
 * A server version a rollout or a request set: the target stays on it (no plan moves it unless
 * asked with `includeHeld`) until a deploy without a server version, or a rollout that includes
 * held targets, releases it.
 */
export const holdSchema = z.object({
  version: z.string(),
  by: z.enum(['request', 'rollout']),
  revision: z.number().int(),
  actor: z.string(),
  at: z.string(),
  /** What models.yaml resolves now without the hold (its default_version or the model's pin). */
  catalogVersion: z.string().optional(),
  /** e.g. `held at 0.19.1 by rollout of 2026-12-01 by user:default/alice (revision 4); models.yaml default 0.24.0` */
  text: z.string(),
});

/** What runs on the target, read from its live objects and the revision that applied them. */
export const whatRunsSchema = z.object({
  /** The server version label of the live main object. */
  version: z.string().optional(),
  image: z.string().optional(),
  /** The model server container's env as live (`valueFrom` entries as `(from …)`). */
  env: z.record(z.string(), z.string()).optional(),
  args: z.array(z.string()).optional(),
  /** Absent when no revision is on record. */
  revision: appliedRevisionSchema.optional(),
  /** The objects as that revision applied them. */
  manifests: z.array(renderedObjectSchema).optional(),
});

/** What a new deploy (no server version, env or args asked) would apply: the catalog's resolution. */
export const newDeploySchema = z.object({
  version: z.string().optional(),
  image: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
  args: z.array(z.string()).optional(),
  manifests: z.array(renderedObjectSchema).optional(),
  /** Why the catalog cannot resolve the model now (e.g. it was removed from models.yaml). */
  error: z.string().optional(),
});

/** One field that differs between what runs and what a new deploy would apply, and why. */
export const syncDifferenceSchema = z.object({
  reason: syncReasonSchema,
  kind: z.string(),
  name: z.string(),
  namespace: z.string().optional(),
  /** e.g. `.spec.predictor.model.image`; `.` for the whole object (missing from the cluster). */
  path: z.string(),
  /** The live value (absent: not set on the live object, or the object is gone). */
  runs: jsonFieldValueSchema.optional(),
  /** The value a new deploy would apply (absent: it would not set it). */
  newDeploy: jsonFieldValueSchema.optional(),
  /** For drift: the value the revision applied. */
  applied: jsonFieldValueSchema.optional(),
  /** The reason in words, naming the revision, rollout, version or file. */
  text: z.string(),
});

/** The sync state of one target: what runs, what a new deploy would apply, and each difference. */
export const targetSyncSchema = z.object({
  /** `in-sync`: no difference; `differs`: see `differences`; `unknown`: the cluster was not read. */
  state: z.enum(['in-sync', 'differs', 'unknown']),
  runs: whatRunsSchema,
  newDeploy: newDeploySchema,
  hold: holdSchema.optional(),
  differences: z.array(syncDifferenceSchema),
  /** One line for lists and the CLI, e.g. `held at 0.19.1 by …; 2 differences (rollout)`. */
  summary: z.string(),
});

/** The answer of `GET /models/:name/deployments/:revision/diff`. */
export const revisionDiffSchema = z.object({
  model: z.string(),
  revision: z.number().int(),
  cluster: z.string(),
  namespace: z.string(),
  /** What this deploy changed: from the previous revision at the same cluster and namespace. */
  againstPrevious: z.object({
    previousRevision: z.number().int().optional(),
    objects: z.array(objectChangesSchema),
  }),
  /**
   * The revision's objects (as applied, with its own overrides) against the live objects now;
   * `error` when the cluster could not be read.
   */
  againstLive: z.object({
    objects: z.array(objectChangesSchema),
    error: z.string().optional(),
  }),
});
