import type { FleetRevision } from '@model-manager/plugin-model-manager-common';

/** `rev 3 rollout by user:default/alice, 30/11/2026, 10:00:00`, or what it means when there is none. */
export function targetRevisionText(
  revision: FleetRevision | undefined,
): string {
  if (!revision) return 'no revision on record (applied outside this portal)';
  return `rev ${revision.revision} ${revision.action} by ${
    revision.actor
  }, ${new Date(revision.at).toLocaleString()}`;
}
