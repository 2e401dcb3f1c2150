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

export interface ApplyRequest {
  objects: RenderedObject[];
  dryRun: boolean;
  force: boolean;
  /** `Impersonate-User` value, when impersonation is on. */
  impersonateUser?: string;
}
