import { diffManifests } from '@model-manager/plugin-model-manager-common';
import type { DeploymentHistoryItem, DeploymentRecord } from './types';

/** A record that put objects on a cluster: a succeeded deploy, rollback or rollout. */
const applied = (r: DeploymentRecord) =>
  r.outcome === 'succeeded' &&
  r.manifests.length > 0 &&
  (r.action === 'deploy' || r.action === 'rollback' || r.action === 'rollout');

/**
 * Adds to each row of a model's history (newest first) what it changes compared with the
 * revision before it at the same cluster and namespace: for applied revisions and dry runs, the
 * field changes from the last applied revision older than the row. Failed and denied rows have
 * none (they changed nothing).
 */
export function withChangesFromPrevious(
  records: DeploymentRecord[],
): DeploymentHistoryItem[] {
  return records.map((record, index) => {
    // A failed or denied row changed nothing: it has no changes from the previous revision.
    if (
      record.action === 'undeploy' ||
      record.manifests.length === 0 ||
      record.outcome !== 'succeeded'
    )
      return record;
    const previous = records
      .slice(index + 1)
      .find(
        r =>
          r.cluster === record.cluster &&
          r.namespace === record.namespace &&
          (applied(r) ||
            (r.action === 'undeploy' && r.outcome === 'succeeded')),
      );
    if (!previous || previous.action === 'undeploy') {
      return {
        ...record,
        changesFromPrevious: { objects: diffManifests([], record.manifests) },
      };
    }
    return {
      ...record,
      changesFromPrevious: {
        previousRevision: previous.revision,
        objects: diffManifests(previous.manifests, record.manifests),
      },
    };
  });
}
