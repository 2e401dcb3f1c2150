import type { ConditionSummary } from '@model-manager/plugin-model-manager-common';

const reasonAndMessage = (c: ConditionSummary) =>
  c.reason
    ? ` — ${c.reason}${c.message ? `: ${c.message}` : ''}`
    : c.message
    ? ` — ${c.message}`
    : '';

/**
 * KServe's conditions in words: whether Ready is reported and what it says, and the first
 * condition that is False (its type, reason and message; another than Ready when there is one,
 * as it says why Ready is False). Conditions as KServe reports them in `status.conditions`
 * (knative `apis.Condition`: type, status True/False/Unknown, reason, message).
 */
export function conditionWords(conditions: ConditionSummary[]): {
  ready: string;
  firstFalse?: string;
} {
  const ready = conditions.find(c => c.type === 'Ready');
  const readyWords = !ready
    ? 'Ready: not reported yet'
    : ready.status === 'True'
    ? 'Ready: yes'
    : ready.status === 'False'
    ? 'Ready: no'
    : `Ready: ${ready.status.toLowerCase()}${reasonAndMessage(ready)}`;
  const falses = conditions.filter(c => c.status === 'False');
  const first = falses.find(c => c.type !== 'Ready') ?? falses[0];
  return {
    ready: readyWords,
    firstFalse: first
      ? `${first.type} is False${reasonAndMessage(first)}`
      : undefined,
  };
}
