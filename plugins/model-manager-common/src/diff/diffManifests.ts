import type { ObjectChanges } from '../api/fleet';
import type { RenderedObject } from '../renderer/types';
import { diffObject } from './diffObject';

type Manifest = Pick<
  RenderedObject,
  'kind' | 'name' | 'namespace' | 'manifest'
>;

const keyOf = (o: Manifest) => `${o.kind}/${o.namespace ?? ''}/${o.name}`;

/**
 * The field-level changes from `older` to `newer`, two sets of rendered objects (two revisions, or
 * a revision and what the catalog renders now). Both sides are ours, so the comparison is
 * symmetric: each change's `rendered` is the newer value, `live` the older. Objects only in
 * `newer` are `added`, only in `older` `removed`. Unchanged objects are left out.
 */
export function diffManifests(
  older: Manifest[],
  newer: Manifest[],
): ObjectChanges[] {
  const olderByKey = new Map(older.map(o => [keyOf(o), o]));
  const changes: ObjectChanges[] = [];
  for (const object of newer) {
    const before = olderByKey.get(keyOf(object));
    olderByKey.delete(keyOf(object));
    const header = {
      kind: object.kind,
      name: object.name,
      ...(object.namespace ? { namespace: object.namespace } : {}),
    };
    if (!before) {
      changes.push({ ...header, change: 'added', fields: [] });
      continue;
    }
    const fields = diffObject(object.manifest, before.manifest, '', {
      symmetric: true,
    });
    if (fields.length > 0)
      changes.push({ ...header, change: 'changed', fields });
  }
  for (const removed of olderByKey.values()) {
    changes.push({
      kind: removed.kind,
      name: removed.name,
      ...(removed.namespace ? { namespace: removed.namespace } : {}),
      change: 'removed',
      fields: [],
    });
  }
  return changes;
}
