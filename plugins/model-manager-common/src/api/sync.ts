/**
 * The sync state of one deployment target (model, cluster, namespace), computed once by the
 * backend's `syncState` and shown the same way by the Serving tab, the Deployments page, the
 * runtime page, history diffs, `/fleet`, the rollout plan and the CLI. The schemas, with what
 * each field means, are in ./contract/answers/sync.ts; the types are derived from them.
 */
import type { z } from 'zod';
import type {
  appliedRevisionSchema,
  holdSchema,
  newDeploySchema,
  revisionDiffSchema,
  syncDifferenceSchema,
  syncReasonSchema,
  targetSyncSchema,
  whatRunsSchema,
} from './contract/answers/sync';

/** Why what runs differs from what a new deploy would apply (see syncReasonSchema). */
export type SyncReason = z.infer<typeof syncReasonSchema>;
/** The revision that applied what runs, with its overrides. */
export type AppliedRevision = z.infer<typeof appliedRevisionSchema>;
/** A server version a rollout or a request set: the target stays on it until released. */
export type Hold = z.infer<typeof holdSchema>;
/** What runs on the target, read from its live objects and the revision that applied them. */
export type WhatRuns = z.infer<typeof whatRunsSchema>;
/** What a new deploy (no server version, env or args asked) would apply: the catalog's resolution. */
export type NewDeploy = z.infer<typeof newDeploySchema>;
/** One field that differs between what runs and what a new deploy would apply, and why. */
export type SyncDifference = z.infer<typeof syncDifferenceSchema>;
/** The sync state of one target: what runs, what a new deploy would apply, and each difference. */
export type TargetSync = z.infer<typeof targetSyncSchema>;
/** The answer of `GET /models/:name/deployments/:revision/diff`. */
export type RevisionDiff = z.infer<typeof revisionDiffSchema>;
