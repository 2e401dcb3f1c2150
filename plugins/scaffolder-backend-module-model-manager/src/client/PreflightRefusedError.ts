import { ConflictError } from '@backstage/errors';
import type { PreflightCheck } from '@model-manager/plugin-model-manager-common';

/**
 * The backend refused a deploy because a preflight check failed (409 with `checks`); nothing was
 * applied. The message is the backend's; the checks let an action say how to apply anyway in its
 * own words.
 */
export class PreflightRefusedError extends ConflictError {
  /** Every check of the preflight, the failed ones among them. */
  readonly checks: PreflightCheck[];

  constructor(message: string, checks: PreflightCheck[]) {
    super(message);
    this.checks = checks;
  }
}
