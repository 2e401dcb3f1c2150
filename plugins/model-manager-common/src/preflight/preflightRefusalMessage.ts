import type { PreflightCheck } from '../api/preflight';

/** How a REST caller applies anyway after a refusal; the scaffolder and the CLI say it in their own words. */
export const APPLY_ANYWAY_REST =
  'Deploy with skipPreflight: true to apply anyway';

/**
 * What a deploy refused by preflight says: the target, that nothing was applied, each failed
 * check with its fix, and how to apply anyway in the caller's own words (the REST request's
 * `skipPreflight: true`, the CLI's `--skip-preflight`, the Deploy form's checkbox).
 */
export function preflightRefusalMessage(
  target: string,
  checks: readonly PreflightCheck[],
  applyAnyway: string,
): string {
  const failed = checks
    .filter(c => c.status === 'fail')
    .map(c => `${c.title}: ${c.message}${c.fix ? ` (fix: ${c.fix})` : ''}`);
  return `preflight refused the deploy to ${target}, nothing was applied: ${failed.join(
    '; ',
  )}. ${applyAnyway}`;
}
