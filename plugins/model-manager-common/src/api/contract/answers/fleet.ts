/**
 * The answers of the fleet (what runs where) and of version rollouts: `GET /fleet`,
 * `GET /models/:name/fleet`, `GET /rollouts/plan` and `POST /rollouts/apply`.
 */
import { z } from 'zod';
import {
  objectChangesSchema,
  recordedOverridesSchema,
  targetShape,
} from './common';
import { preflightCheckSchema } from './preflight';
import { jobProgressSchema } from './status';
import { appliedRevisionSchema, holdSchema, targetSyncSchema } from './sync';

/**
 * The state of one deployment target:
 * - `Ready`: KServe reports the model's main object Ready;
 * - `NotReady`: it exists but is not Ready (or KServe has not reported yet); `reason` says why;
 * - `Missing`: some of the objects of the last revision are gone from the cluster;
 * - `Unknown`: the cluster could not be read.
 */
export const fleetStateSchema = z.enum([
  'Ready',
  'NotReady',
  'Missing',
  'Unknown',
]);

/**
 * The last revision that put a model on a target (deploy, rollback or rollout): the revision
 * `sync.runs` names, without its rollout id.
 */
export const fleetRevisionSchema = appliedRevisionSchema.omit({
  rolloutId: true,
});

/** One place a model runs: (model, cluster, namespace). */
export const fleetTargetSchema = z.object({
  ...targetShape,
  runtime: z.string(),
  /** The server version label of the live main object (versioned runtimes). */
  liveVersion: z.string().optional(),
  /** The image of the live model server container. */
  liveImage: z.string().optional(),
  /** What the catalog resolves now with the overrides of the last revision. */
  resolvedVersion: z.string().optional(),
  resolvedImage: z.string().optional(),
  state: fleetStateSchema,
  /** Why it is not Ready, in words (KServe's reason, the missing objects, the cluster error). */
  reason: z.string().optional(),
  /** NotReady because KServe has not reported a Ready condition yet: waiting, not failing. */
  awaitingKServe: z.boolean().optional(),
  /**
   * A NotReady target's weights download (the engine profile's `progress:` object, e.g. OVMS's
   * `ovms --pull` Job), read from the live Job without its pods: pending, running or failed. Absent
   * once complete, when the Job is gone (it is removed a day after it finishes) and for engines
   * that download inside the server pod (vLLM).
   */
  download: jobProgressSchema.optional(),
  /** Someone changed the live objects since model-manager applied them. */
  drifted: z.boolean(),
  drift: z.array(objectChangesSchema),
  /**
   * Applying the last revision's request again would change something (e.g. the version's image
   * changed in models.yaml). A held version is not outdated: see `sync.hold`.
   */
  outdated: z.boolean(),
  outdatedChanges: z.array(objectChangesSchema),
  /** Why what would be applied now cannot be told (e.g. the recorded version was removed). */
  outdatedError: z.string().optional(),
  /** Absent when no revision is on record (applied by the CLI, GitOps or another portal). */
  revision: fleetRevisionSchema.optional(),
  /** The URL KServe reports for the model. */
  endpoint: z.string().optional(),
  /** The model is no longer in models.yaml. */
  unknownModel: z.boolean().optional(),
  /** What runs, what a new deploy would apply, the hold and each difference with its reason. */
  sync: targetSyncSchema.optional(),
});

/** A cluster that could not be read; its targets are `Unknown`. */
export const fleetErrorSchema = z.object({
  cluster: z.string(),
  message: z.string(),
});

/** The answer of `GET /fleet` and `GET /models/:name/fleet`. */
export const fleetResponseSchema = z.object({
  items: z.array(fleetTargetSchema),
  errors: z.array(fleetErrorSchema),
  /** When the live objects were read (answers are cached for a few seconds). */
  readAt: z.string(),
});

/** A target a rollout would change, and how. */
export const rolloutMoveSchema = z.object({
  ...targetShape,
  fromVersion: z.string().optional(),
  toVersion: z.string().optional(),
  /** The overrides the rollout applies with: the last revision's, and the target version. */
  overrides: recordedOverridesSchema,
  changes: z.array(objectChangesSchema),
  /** The hold this move releases (a held target moved with `includeHeld`, or a rollout hold models.yaml now resolves to). */
  releasesHold: holdSchema.optional(),
  /** The preflight checks of the target with those overrides (see `GET /models/:name/preflight`). */
  preflight: z.array(preflightCheckSchema).optional(),
});

/** Why a target would not move. */
export const rolloutStayReasonSchema = z.enum([
  'pinned-by-model',
  'held',
  'flat-runtime',
  'up-to-date',
  'unreachable',
  'unresolvable',
]);

/** A target a rollout would not move, and why. */
export const rolloutStaySchema = z.object({
  ...targetShape,
  liveVersion: z.string().optional(),
  why: rolloutStayReasonSchema,
  /** The same in words, naming the file, revision or error. */
  reason: z.string(),
  /** For `held`: the version a rollout or request set, who and when. */
  hold: holdSchema.optional(),
});

/** The answer of `GET /rollouts/plan`. */
export const rolloutPlanSchema = z.object({
  runtime: z.string(),
  /** The version asked for; absent: what the catalog resolves now (e.g. a moved default_version). */
  version: z.string().optional(),
  moves: z.array(rolloutMoveSchema),
  stays: z.array(rolloutStaySchema),
  errors: z.array(fleetErrorSchema),
});

/** What happened to one target of a rollout batch. */
export const rolloutTargetResultSchema = z.object({
  ...targetShape,
  /** `applied`; `already-applied` by this rollout before (a resumed task); `failed`; `not-attempted` (the batch stopped). */
  outcome: z.enum(['applied', 'already-applied', 'failed', 'not-attempted']),
  revision: z.number().int().optional(),
  serverVersion: z.string().optional(),
  message: z.string().optional(),
});

/** The answer of `POST /rollouts/apply`. */
export const rolloutApplyResultSchema = z.object({
  items: z.array(rolloutTargetResultSchema),
});
