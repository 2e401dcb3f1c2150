/**
 * The sync state of one deployment target (model, cluster, namespace), computed once by the
 * backend's `syncState` and shown the same way by the Serving tab, the Deployments page, the
 * runtime page, history diffs, `/fleet`, the rollout plan and the CLI.
 */
import type { RenderedObject } from '../renderer/types';
import type { ServerOverrides } from '../resolver/types';
import type { DeploymentAction, ObjectChanges } from './fleet';
import type { JsonFieldValue } from './types';

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
export type SyncReason =
  | 'request-pin'
  | 'rollout'
  | 'drift'
  | 'catalog-change'
  | 'not-recorded';

/** The revision that applied what runs, with its overrides. */
export type AppliedRevision = {
  revision: number;
  action: DeploymentAction;
  actor: string;
  at: string;
  overrides: ServerOverrides;
  serverVersion?: string;
  /** For a rollout: the rollout (scaffolder task id). */
  rolloutId?: string;
};

/**
 * A server version a rollout or a request set: the target stays on it (no plan moves it unless
 * asked with `includeHeld`) until a deploy without a server version, or a rollout that includes
 * held targets, releases it.
 */
export type Hold = {
  version: string;
  by: 'request' | 'rollout';
  revision: number;
  actor: string;
  at: string;
  /** What models.yaml resolves now without the hold (its default_version or the model's pin). */
  catalogVersion?: string;
  /** e.g. `held at 0.19.1 by rollout of 2026-12-01 by user:default/alice (revision 4); models.yaml default 0.24.0` */
  text: string;
};

/** What runs on the target, read from its live objects and the revision that applied them. */
export type WhatRuns = {
  /** The server version label of the live main object. */
  version?: string;
  image?: string;
  /** The model server container's env as live (`valueFrom` entries as `(from …)`). */
  env?: Record<string, string>;
  args?: string[];
  /** Absent when no revision is on record. */
  revision?: AppliedRevision;
  /** The objects as that revision applied them. */
  manifests?: RenderedObject[];
};

/** What a new deploy (no server version, env or args asked) would apply: the catalog's resolution. */
export type NewDeploy = {
  version?: string;
  image?: string;
  env?: Record<string, string>;
  args?: string[];
  manifests?: RenderedObject[];
  /** Why the catalog cannot resolve the model now (e.g. it was removed from models.yaml). */
  error?: string;
};

/** One field that differs between what runs and what a new deploy would apply, and why. */
export type SyncDifference = {
  reason: SyncReason;
  kind: string;
  name: string;
  namespace?: string;
  /** e.g. `.spec.predictor.model.image`; `.` for the whole object (missing from the cluster). */
  path: string;
  /** The live value (absent: not set on the live object, or the object is gone). */
  runs?: JsonFieldValue;
  /** The value a new deploy would apply (absent: it would not set it). */
  newDeploy?: JsonFieldValue;
  /** For drift: the value the revision applied. */
  applied?: JsonFieldValue;
  /** The reason in words, naming the revision, rollout, version or file. */
  text: string;
};

/** The sync state of one target: what runs, what a new deploy would apply, and each difference. */
export type TargetSync = {
  /** `in-sync`: no difference; `differs`: see `differences`; `unknown`: the cluster was not read. */
  state: 'in-sync' | 'differs' | 'unknown';
  runs: WhatRuns;
  newDeploy: NewDeploy;
  hold?: Hold;
  differences: SyncDifference[];
  /** One line for lists and the CLI, e.g. `held at 0.19.1 by …; 2 differences (rollout)`. */
  summary: string;
};

/** The answer of `GET /models/:name/deployments/:revision/diff`. */
export type RevisionDiff = {
  model: string;
  revision: number;
  cluster: string;
  namespace: string;
  /** What this deploy changed: from the previous revision at the same cluster and namespace. */
  againstPrevious: { previousRevision?: number; objects: ObjectChanges[] };
  /**
   * The revision's objects (as applied, with its own overrides) against the live objects now;
   * `error` when the cluster could not be read.
   */
  againstLive: { objects: ObjectChanges[]; error?: string };
};
