import type {
  SyncReason,
  TargetSync,
} from '@model-manager/plugin-model-manager-common';

/** A difference's reason as a short label (the long words are in each difference's `text`). */
export const REASON_LABELS: Record<SyncReason, string> = {
  'request-pin': 'request',
  rollout: 'rollout',
  drift: 'drift (edited on the cluster)',
  'catalog-change': 'models.yaml changed',
  'not-recorded': 'not recorded',
};

/** The distinct reasons of a target's differences, in the order they first appear. */
export function reasonsOf(sync: TargetSync): SyncReason[] {
  return [...new Set(sync.differences.map(d => d.reason))];
}
