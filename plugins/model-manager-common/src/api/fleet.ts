/**
 * REST shapes of the fleet (what runs where) and of version rollouts, shared by the backend
 * router, the scaffolder module's client and the frontend client.
 */
import type { PreflightCheck } from './preflight';
import type { ServerOverrides } from '../resolver/types';
import type { FieldChange } from './types';
import type { Hold, TargetSync } from './sync';
import type { z } from 'zod';
import type {
  fleetQuerySchema,
  rolloutApplyRequestSchema,
  rolloutPlanQuerySchema,
} from './contract/schemas';

/**
 * The state of one deployment target:
 * - `Ready`: KServe reports the model's main object Ready;
 * - `NotReady`: it exists but is not Ready (or KServe has not reported yet); `reason` says why;
 * - `Missing`: some of the objects of the last revision are gone from the cluster;
 * - `Unknown`: the cluster could not be read.
 */
export type FleetState = 'Ready' | 'NotReady' | 'Missing' | 'Unknown';

export const FLEET_STATES: readonly FleetState[] = [
  'Ready',
  'NotReady',
  'Missing',
  'Unknown',
];

/** Recorded actions. A rollout is a deploy made by `model-manager:rollout`. */
export type DeploymentAction =
  | 'deploy'
  | 'dry-run'
  | 'rollback'
  | 'undeploy'
  | 'rollout';

/** The field-level differences of one object between two versions of it. */
export type ObjectChanges = {
  kind: string;
  name: string;
  namespace?: string;
  /** `added`: only in the newer one; `removed`: only in the older one. */
  change: 'changed' | 'added' | 'removed';
  fields: FieldChange[];
};

/** The last revision that put a model on a target (deploy, rollback or rollout). */
export type FleetRevision = {
  revision: number;
  action: DeploymentAction;
  actor: string;
  at: string;
  overrides: ServerOverrides;
  serverVersion?: string;
};

/** One place a model runs: (model, cluster, namespace). */
export type FleetTarget = {
  model: string;
  cluster: string;
  namespace: string;
  runtime: string;
  /** The server version label of the live main object (versioned runtimes). */
  liveVersion?: string;
  /** The image of the live model server container. */
  liveImage?: string;
  /** What the catalog resolves now with the overrides of the last revision. */
  resolvedVersion?: string;
  resolvedImage?: string;
  state: FleetState;
  /** Why it is not Ready, in words (KServe's reason, the missing objects, the cluster error). */
  reason?: string;
  /** NotReady because KServe has not reported a Ready condition yet: waiting, not failing. */
  awaitingKServe?: boolean;
  /** Someone changed the live objects since model-manager applied them. */
  drifted: boolean;
  drift: ObjectChanges[];
  /**
   * Applying the last revision's request again would change something (e.g. the version's image
   * changed in models.yaml). A held version is not outdated: see `sync.hold`.
   */
  outdated: boolean;
  outdatedChanges: ObjectChanges[];
  /** Why what would be applied now cannot be told (e.g. the recorded version was removed). */
  outdatedError?: string;
  /** Absent when no revision is on record (applied by the CLI, GitOps or another portal). */
  revision?: FleetRevision;
  /** The URL KServe reports for the model. */
  endpoint?: string;
  /** The model is no longer in models.yaml. */
  unknownModel?: boolean;
  /** What runs, what a new deploy would apply, the hold and each difference with its reason. */
  sync?: TargetSync;
};

/** A cluster that could not be read; its targets are `Unknown`. */
export type FleetError = { cluster: string; message: string };

/** The answer of `GET /fleet` and `GET /models/:name/fleet`. */
export type FleetResponse = {
  items: FleetTarget[];
  errors: FleetError[];
  /** When the live objects were read (answers are cached for a few seconds). */
  readAt: string;
};

/** The filters of `GET /fleet` (each optional; all must match; schema: fleetQuerySchema), and a model. */
export type FleetQuery = z.infer<typeof fleetQuerySchema> & { model?: string };

/** A target a rollout would change, and how. */
export type RolloutMove = {
  model: string;
  cluster: string;
  namespace: string;
  fromVersion?: string;
  toVersion?: string;
  /** The overrides the rollout applies with: the last revision's, and the target version. */
  overrides: ServerOverrides;
  changes: ObjectChanges[];
  /** The hold this move releases (a held target moved with `includeHeld`, or a rollout hold models.yaml now resolves to). */
  releasesHold?: Hold;
  /** The preflight checks of the target with those overrides (see `GET /models/:name/preflight`). */
  preflight?: PreflightCheck[];
};

/** Why a target would not move. */
export type RolloutStayReason =
  | 'pinned-by-model'
  | 'held'
  | 'flat-runtime'
  | 'up-to-date'
  | 'unreachable'
  | 'unresolvable';

export type RolloutStay = {
  model: string;
  cluster: string;
  namespace: string;
  liveVersion?: string;
  why: RolloutStayReason;
  /** The same in words, naming the file, revision or error. */
  reason: string;
  /** For `held`: the version a rollout or request set, who and when. */
  hold?: Hold;
};

/** The answer of `GET /rollouts/plan`. */
export type RolloutPlan = {
  runtime: string;
  /** The version asked for; absent: what the catalog resolves now (e.g. a moved default_version). */
  version?: string;
  moves: RolloutMove[];
  stays: RolloutStay[];
  errors: FleetError[];
};

/** The query of `GET /rollouts/plan` (schema: rolloutPlanQuerySchema). */
export type RolloutPlanQuery = z.infer<typeof rolloutPlanQuerySchema>;

/** The query string values of `GET /rollouts/plan` (`includeHeld=true` only when asked). */
export function rolloutPlanParams(
  query: RolloutPlanQuery,
): Record<string, string | undefined> {
  const { includeHeld, ...rest } = query;
  return { ...rest, includeHeld: includeHeld ? 'true' : undefined };
}

/** Targets are named `model@cluster/namespace` in logs and checkpoints. */
export function targetLabel(t: {
  model: string;
  cluster: string;
  namespace: string;
}): string {
  return `${t.model}@${t.cluster}/${t.namespace}`;
}

/** The body of `POST /rollouts/apply`: one batch of a rollout's targets (schema: rolloutApplyRequestSchema). */
export type RolloutApplyRequest = z.infer<typeof rolloutApplyRequestSchema>;

/** What happened to one target of a rollout batch. */
export type RolloutTargetResult = {
  model: string;
  cluster: string;
  namespace: string;
  /** `applied`; `already-applied` by this rollout before (a resumed task); `failed`; `not-attempted` (the batch stopped). */
  outcome: 'applied' | 'already-applied' | 'failed' | 'not-attempted';
  revision?: number;
  serverVersion?: string;
  message?: string;
};

/** The answer of `POST /rollouts/apply`. */
export type RolloutApplyResult = { items: RolloutTargetResult[] };
