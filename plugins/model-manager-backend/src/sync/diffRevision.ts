import type { KubernetesObject } from '@kubernetes/client-node';
import {
  diffObject,
  type DeploymentHistoryItem,
  type ObjectChanges,
  type RevisionDiff,
} from '@model-manager/plugin-model-manager-common';
import { isModelObject, isTransient } from '../fleet/managedKinds';

/**
 * One history row's two diffs: what this deploy changed (from the previous revision at the same
 * cluster and namespace, as `withChangesFromPrevious` computed it), and the revision's objects as
 * applied, with its own overrides, against the live objects now (`live` undefined: the cluster
 * could not be read, `error` says why).
 */
export function diffRevision(
  row: DeploymentHistoryItem,
  live: KubernetesObject[] | undefined,
  error?: string,
): RevisionDiff {
  const liveByKey = new Map(
    (live ?? []).map(o => [`${o.kind}/${o.metadata?.name}`, o]),
  );
  const objects: ObjectChanges[] = [];
  if (live) {
    for (const o of row.manifests.filter(isModelObject)) {
      const header = {
        kind: o.kind,
        name: o.name,
        ...(o.namespace ? { namespace: o.namespace } : {}),
      };
      const l = liveByKey.get(`${o.kind}/${o.name}`);
      if (!l) {
        if (!isTransient(o))
          objects.push({ ...header, change: 'removed', fields: [] });
        continue;
      }
      const fields = diffObject(o.manifest, l);
      if (fields.length > 0)
        objects.push({ ...header, change: 'changed', fields });
    }
  }
  return {
    model: row.model,
    revision: row.revision!,
    cluster: row.cluster,
    namespace: row.namespace,
    againstPrevious: row.changesFromPrevious ?? { objects: [] },
    againstLive: { objects, ...(live ? {} : { error: error ?? 'not read' }) },
  };
}
