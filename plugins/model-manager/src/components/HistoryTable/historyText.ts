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

/** The actions after which a target's live objects are those the row applied (or none). */
const PUTS_LIVE = new Set(['deploy', 'rollback', 'rollout', 'undeploy']);

/**
 * The revision live on each `cluster/namespace`, read from the history (newest first): the newest
 * row there that succeeded in applying (deploy, rollback, rollout) or deleting (undeploy) objects.
 * Dry runs and failures leave what ran before; after an undeploy nothing of ours is live.
 */
export function liveRevisions(
  history: DeploymentHistoryItem[],
): Map<string, number> {
  const live = new Map<string, number>();
  const decided = new Set<string>();
  for (const r of history) {
    const where = `${r.cluster}/${r.namespace}`;
    if (decided.has(where)) continue;
    if (r.outcome !== 'succeeded' || !PUTS_LIVE.has(r.action)) continue;
    decided.add(where);
    if (r.action !== 'undeploy' && r.revision !== undefined)
      live.set(where, r.revision);
  }
  return live;
}

/** Whether a row is the revision live on its target now (rolling back to it would change nothing). */
export const isLive = (r: DeploymentHistoryItem, live: Map<string, number>) =>
  r.revision !== undefined &&
  live.get(`${r.cluster}/${r.namespace}`) === r.revision;
