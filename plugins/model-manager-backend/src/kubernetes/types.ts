import type { RenderedObject } from '@model-manager/plugin-model-manager-common';

export type {
  FailureKind,
  ObjectAction,
  ObjectResult,
} from '@model-manager/plugin-model-manager-common';
import type {
  FailureKind,
  ObjectResult,
} from '@model-manager/plugin-model-manager-common';

export interface ApplyOutcome {
  ok: boolean;
  results: ObjectResult[];
  /** Set when !ok: the kind of the first failure (decides the HTTP status). */
  failure?: FailureKind;
  /** The live objects as the API server returned them after apply (or dry-run). */
  live: Array<Record<string, any> | undefined>;
}

/**
 * An object this backend deleted, as the API server answered the DELETE: the `uid` of its
 * `Status` answer (the object is gone), or the `resourceVersion` of the object it answered
 * instead (it stays, with a deletionTimestamp, until its finalizers are removed). The fleet's
 * watch cache tells by these that it has seen the delete.
 */
export interface DeletedObject {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
}

/** A write of this backend as the API server answered it (see `FleetWatches.changed`). */
export interface WrittenObjects {
  /** The applied objects as answered (their resourceVersions); undefined items: not known. */
  applied?: ReadonlyArray<Record<string, any> | undefined>;
  deleted?: ReadonlyArray<DeletedObject>;
}

export interface ApplyRequest {
  objects: RenderedObject[];
  dryRun: boolean;
  force: boolean;
  /** `Impersonate-User` value, when impersonation is on. */
  impersonateUser?: string;
  /**
   * What the caller last saw of each object, by index: the live object, `null` when it was absent,
   * `undefined` when not known. Given for a single-object apply, the read before the apply is
   * skipped and the action (created, configured, unchanged) is told from it.
   */
  lastSeen?: ReadonlyArray<Record<string, any> | null | undefined>;
  /**
   * The level of the per-object log line (default `info`). A rollout logs its objects at `debug`:
   * each target already has an audit event and a line in the task log.
   */
  logLevel?: 'info' | 'debug';
}
