import type { DeploymentHistoryItem } from '@model-manager/plugin-model-manager-common';

/** What a row did, in words: `rollback to rev 2`, `rollout`, `deploy`, ... */
export function actionText(
  r: Pick<DeploymentHistoryItem, 'action' | 'rollbackOf'>,
): string {
  if (r.action === 'rollback' && r.rollbackOf !== undefined)
    return `rollback to rev ${r.rollbackOf}`;
  return r.action;
}

/** The per-model revision, or `dry run` (dry runs take no revision number). */
export const revisionText = (r: Pick<DeploymentHistoryItem, 'revision'>) =>
  r.revision === undefined ? 'dry run' : String(r.revision);

/** Whether a row can be rolled back to: it put objects on a cluster and has a revision. */
export const canRollBackTo = (r: DeploymentHistoryItem) =>
  r.revision !== undefined &&
  r.outcome === 'succeeded' &&
  (r.action === 'deploy' || r.action === 'rollback' || r.action === 'rollout');
