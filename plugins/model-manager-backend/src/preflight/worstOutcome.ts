import type { PreflightCheck } from '@model-manager/plugin-model-manager-common';

/** What one of a check's several findings says. */
export type Outcome = Pick<PreflightCheck, 'status' | 'message' | 'fix'>;

const RANK: Record<PreflightCheck['status'], number> = {
  pass: 0,
  warn: 1,
  unknown: 2,
  fail: 3,
};

/**
 * One check's outcome from its findings (one per requirement or object): the worst status, with
 * the messages and fixes of the findings that have it; all messages when every one passes.
 */
export function worstOutcome(outcomes: readonly Outcome[]): Outcome {
  const worst = outcomes.reduce((a, b) =>
    RANK[b.status] > RANK[a.status] ? b : a,
  );
  const shown =
    worst.status === 'pass'
      ? outcomes
      : outcomes.filter(o => o.status === worst.status);
  const fixes = shown.flatMap(o => (o.fix ? [o.fix] : []));
  return {
    status: worst.status,
    message: shown.map(o => o.message).join('; '),
    ...(fixes.length > 0 ? { fix: fixes.join('; ') } : {}),
  };
}
