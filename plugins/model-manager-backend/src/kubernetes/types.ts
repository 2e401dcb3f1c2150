import type { RenderedObject } from '@model-manager/plugin-model-manager-common';

/** What happened to one object in a deploy, dry-run or undeploy. */
export type ObjectAction =
  | 'created'
  | 'configured'
  | 'unchanged'
  | 'exists'
  | 'deleted'
  | 'absent'
  | 'failed'
  | 'not-applied';

export interface ObjectResult {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  action: ObjectAction;
  /** Set for `failed` and `not-applied`: what went wrong and what to do. */
  message?: string;
  /** Kubernetes reason when the API said no (Conflict, Invalid, Forbidden, ...). */
  reason?: string;
  /** For conflicts: the other field managers and the fields they own. */
  conflicts?: Array<{ manager: string; field: string }>;
}

/** How a failure should be treated. */
export type FailureKind =
  /** 409 field-manager conflict: retry with force to take ownership */
  | 'conflict'
  /** 422, 400 or SSA's 500 "failed to create typed patch object": never retried */
  | 'invalid'
  /** 401/403 from the cluster */
  | 'forbidden'
  /** 404 namespace missing */
  | 'not-found'
  /** 429, 5xx, connection errors, timeouts after the retry bound */
  | 'unavailable';

export interface ApplyOutcome {
  ok: boolean;
  results: ObjectResult[];
  /** Set when !ok: the kind of the first failure (decides the HTTP status). */
  failure?: FailureKind;
  /** The live objects as the API server returned them after apply (or dry-run). */
  live: Array<Record<string, any> | undefined>;
}

export interface ApplyRequest {
  objects: RenderedObject[];
  dryRun: boolean;
  force: boolean;
  /** `Impersonate-User` value, when impersonation is on. */
  impersonateUser?: string;
}
