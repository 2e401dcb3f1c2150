import { ConflictError } from '@backstage/errors';
import {
  APPLY_ANYWAY_REST,
  preflightRefusalMessage,
  type PreflightCheck,
} from '@model-manager/plugin-model-manager-common';

/**
 * A deploy refused because a preflight check failed; nothing was applied. 409 Conflict: the
 * request is well formed, but conflicts with the target's current state (RFC 9110 §15.5.10), and
 * the same request succeeds once the cluster changes (400 would say the request itself is wrong).
 */
export class PreflightFailedError extends ConflictError {
  readonly checks: PreflightCheck[];

  constructor(target: string, checks: PreflightCheck[]) {
    super(preflightRefusalMessage(target, checks, APPLY_ANYWAY_REST));
    (this as { name: string }).name = 'PreflightFailedError';
    this.checks = checks;
  }
}
