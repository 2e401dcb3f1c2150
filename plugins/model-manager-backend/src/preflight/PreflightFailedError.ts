import { ConflictError } from '@backstage/errors';
import type { PreflightCheck } from '@model-manager/plugin-model-manager-common';

/**
 * A deploy refused because a preflight check failed; nothing was applied. 409 Conflict: the
 * request is well formed, but conflicts with the target's current state (RFC 9110 §15.5.10), and
 * the same request succeeds once the cluster changes (400 would say the request itself is wrong).
 */
export class PreflightFailedError extends ConflictError {
  readonly checks: PreflightCheck[];

  constructor(target: string, checks: PreflightCheck[]) {
    const failed = checks.filter(c => c.status === 'fail');
    super(
      `preflight refused the deploy to ${target}, nothing was applied: ${failed
        .map(c => `${c.title}: ${c.message}${c.fix ? ` (fix: ${c.fix})` : ''}`)
        .join('; ')}. Deploy with skipPreflight: true to apply anyway`,
    );
    (this as { name: string }).name = 'PreflightFailedError';
    this.checks = checks;
  }
}
