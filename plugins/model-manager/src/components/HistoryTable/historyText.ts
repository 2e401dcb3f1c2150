import type { DeploymentHistoryItem } from '@model-manager/plugin-model-manager-common';

/** What a row did, in words: `rollback to rev 2`, `rollout`, `deploy`, ... */
export function actionText(
  r: Pick<DeploymentHistoryItem, 'action' | 'rollbackOf'>,
): string {
  if (r.action === 'rollback' && r.rollbackOf !== undefined)
    return `rollback to rev ${r.rollbackOf}`;
  return r.action;
}

/** The per-model revision, `dry run`, or `none` (failures and undeploys of nothing take no number). */
export const revisionText = (
  r: Pick<DeploymentHistoryItem, 'revision' | 'action'>,
) => {
  if (r.revision !== undefined) return String(r.revision);
  // Dry runs, failures and undeploys that found nothing take no revision.
  return r.action === 'dry-run' ? 'dry run' : 'none';
};

/** Whether a row can be rolled back to: it put objects on a cluster and has a revision. */
export const canRollBackTo = (r: DeploymentHistoryItem) =>
  r.revision !== undefined &&
  r.outcome === 'succeeded' &&
  (r.action === 'deploy' || r.action === 'rollback' || r.action === 'rollout');
