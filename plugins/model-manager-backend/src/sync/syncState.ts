import type { KubernetesObject } from '@kubernetes/client-node';
import {
  diffObject,
  isServerKind,
  statusReadingOf,
  type AppliedRevision,
  type Catalog,
  type DeploymentRecord,
  type FieldChange,
  type ObjectChanges,
  type RenderedObject,
  type ServerOverrides,
  type SyncDifference,
  type SyncReason,
  type TargetSync,
} from '@model-manager/plugin-model-manager-common';
import { isModelObject, isTransient } from '../fleet/managedKinds';
import { holdOf } from './holdOf';
import { readServer } from './readServer';

/** What the catalog renders for a model at a namespace with some overrides, or why it cannot. */
export type Rendering =
  | {
      objects: RenderedObject[];
      version?: string;
      image?: string;
      pinnedByModel: boolean;
      apiPrefix?: string;
    }
  | { error: string };

export interface SyncInput {
  catalog: Catalog;
  model: string;
  namespace: string;
  /** The target's live objects (labelled with the model); undefined: the cluster was not read. */
  live: KubernetesObject[] | undefined;
  /** The last revision that applied objects there (deploy, rollback, rollout), if any. */
  record?: DeploymentRecord;
  /** Renders the catalog now (memoized by the caller; see `renderNow`). */
  render: (overrides: ServerOverrides) => Rendering;
}

/** The sync state, with the drift and catalog changes the fleet's older fields list. */
export interface SyncResult {
  sync: TargetSync;
  /** Applied vs live: what someone changed on the live objects. */
  drift: ObjectChanges[];
  /** Applied vs the same request rendered now: what models.yaml changed since. */
  catalogChanges: ObjectChanges[];
  /** Why the same request cannot be rendered now. */
  catalogError?: string;
}

const keyOf = (o: { kind: string; name: string }) => `${o.kind}/${o.name}`;

/**
 * The one computation of a target's sync state (Argo CD's live / applied / desired):
 * - what runs: the live main object's version, image, env and args, the revision that applied
 *   them with its overrides, and the objects as applied;
 * - what a new deploy would apply: the catalog rendered without overrides;
 * - the hold: the server version a request or a rollout set (see `holdOf`);
 * - every field where what runs differs from what a new deploy would apply, with its reason:
 *   `drift` where the live field is not what the revision applied; else `catalog-change` where the
 *   same request rendered now differs from what it applied; else the revision's overrides
 *   (`rollout` for a rollout to a version, `request-pin` for a request); `not-recorded` where no
 *   revision is on record.
 * Pure: the live objects, the record and the renderer come in.
 */
export function syncState(input: SyncInput): SyncResult {
  const { catalog, record } = input;
  const bare = input.render({});
  const same = record ? input.render(record.overrides) : bare;
  const reading = statusReadingOf(
    catalog,
    catalog.models[input.model]?.config.server.runtime ?? '',
  );
  const main = (objects: Array<{ kind?: string }> | undefined) =>
    objects?.find(o => isServerKind(catalog, o.kind ?? ''));
  const applied = (record?.manifests ?? []).filter(isModelObject);
  const rendered = 'error' in bare ? [] : bare.objects.filter(isModelObject);
  const again = 'error' in same ? undefined : same.objects;
  const liveByKey = new Map(
    (input.live ?? []).map(o => [
      keyOf({ kind: o.kind ?? '', name: o.metadata?.name ?? '' }),
      o,
    ]),
  );

  const runs = {
    ...readServer(main(input.live) as Record<string, any>, reading),
    ...(record?.revision !== undefined
      ? { revision: revisionOf(record), manifests: record.manifests }
      : {}),
  };
  const newDeploy =
    'error' in bare
      ? { error: bare.error }
      : {
          ...readServer(
            main(bare.objects.map(o => o.manifest)) as Record<string, any>,
            reading,
          ),
          manifests: bare.objects,
        };
  const hold = holdOf(
    record,
    'error' in bare || bare.version === undefined
      ? undefined
      : { version: bare.version, pinnedByModel: bare.pinnedByModel },
  );

  const drift: ObjectChanges[] = [];
  const catalogChanges: ObjectChanges[] = [];
  const differences: SyncDifference[] = [];
  if (input.live !== undefined) {
    for (const a of applied) {
      const l = liveByKey.get(keyOf(a));
      if (!l && !isTransient(a)) {
        differences.push({
          ...header(a),
          reason: 'drift',
          path: '.',
          text: `${a.kind} ${a.name} is gone from the cluster; deploy again to recreate it`,
        });
        continue;
      }
      const fields = l ? diffObject(a.manifest, l) : [];
      if (fields.length === 0) continue;
      drift.push({ ...header(a), change: 'changed', fields });
      for (const f of fields)
        differences.push({
          ...header(a),
          reason: 'drift',
          path: f.path,
          ...value('runs', f.live),
          ...value('applied', f.rendered),
          text: `changed on the cluster after revision ${record?.revision} applied it (kubectl edit or another tool)`,
        });
    }
  }
  // Applied vs a rendering, per object; the same request without overrides IS the new deploy's
  // rendering (the renderer memoizes), so most targets diff once, not twice.
  const diffs = new Map<RenderedObject, FieldChange[]>();
  const appliedVs = (r: RenderedObject, a: RenderedObject) => {
    let fields = diffs.get(r);
    if (!fields) {
      fields = diffObject(r.manifest, a.manifest, '', { symmetric: true });
      diffs.set(r, fields);
    }
    return fields;
  };
  if (record && again) {
    const againByKey = new Map(again.map(o => [keyOf(o), o]));
    for (const a of applied) {
      const r = againByKey.get(keyOf(a));
      const fields = r ? appliedVs(r, a) : [];
      if (fields.length > 0)
        catalogChanges.push({ ...header(a), change: 'changed', fields });
    }
  }
  const drifted = new Set(differences.map(d => `${d.kind}/${d.name}${d.path}`));
  const changedInCatalog = new Set(
    catalogChanges.flatMap(c =>
      c.fields.map(f => `${c.kind}/${c.name}${f.path}`),
    ),
  );
  const base = record ? applied : [];
  const baseByKey = new Map(base.map(o => [keyOf(o), o]));
  for (const b of rendered) {
    const a = baseByKey.get(keyOf(b));
    baseByKey.delete(keyOf(b));
    if (!record) {
      const l = liveByKey.get(keyOf(b));
      if (input.live === undefined || !l) continue;
      for (const f of diffObject(b.manifest, l))
        differences.push({
          ...header(b),
          reason: 'not-recorded',
          path: f.path,
          ...value('runs', f.live),
          ...value('newDeploy', f.rendered),
          text: 'applied outside this portal (no revision on record): the live value differs from what a new deploy would apply',
        });
      continue;
    }
    if (!a) {
      differences.push({
        ...header(b),
        reason: 'catalog-change',
        path: '.',
        text: `a new deploy would add ${b.kind} ${b.name}: ${catalog.modelsFile} changed since revision ${record.revision}`,
      });
      continue;
    }
    for (const f of appliedVs(b, a)) {
      const at = `${b.kind}/${b.name}${f.path}`;
      if (drifted.has(at)) continue;
      const reason: SyncReason =
        !again || changedInCatalog.has(at)
          ? 'catalog-change'
          : overrideReason(record);
      differences.push({
        ...header(b),
        reason,
        path: f.path,
        ...value('runs', f.live),
        ...value('newDeploy', f.rendered),
        text: reasonText(reason, record, catalog.modelsFile),
      });
    }
  }
  for (const gone of baseByKey.values())
    if (rendered.length > 0)
      differences.push({
        ...header(gone),
        reason: 'catalog-change',
        path: '.',
        text: `a new deploy would no longer render ${gone.kind} ${gone.name}`,
      });

  const sync: TargetSync = {
    state:
      input.live === undefined
        ? 'unknown'
        : differences.length > 0
        ? 'differs'
        : 'in-sync',
    runs,
    newDeploy,
    ...(hold ? { hold } : {}),
    differences,
    summary: '',
  };
  sync.summary = summaryOf(sync);
  return {
    sync,
    drift,
    catalogChanges,
    ...('error' in same ? { catalogError: same.error } : {}),
  };
}

function revisionOf(record: DeploymentRecord): AppliedRevision {
  return {
    revision: record.revision!,
    action: record.action,
    actor: record.actor,
    at: record.createdAt,
    overrides: record.overrides,
    ...(record.serverVersion ? { serverVersion: record.serverVersion } : {}),
    ...(record.rolloutId ? { rolloutId: record.rolloutId } : {}),
  };
}

function header(o: { kind: string; name: string; namespace?: string }) {
  return {
    kind: o.kind,
    name: o.name,
    ...(o.namespace ? { namespace: o.namespace } : {}),
  };
}

function value<K extends string>(key: K, v: unknown) {
  return (v === undefined ? {} : { [key]: v }) as Partial<Record<K, any>>;
}

function overrideReason(record: DeploymentRecord): SyncReason {
  return record.action === 'rollout' && record.overrides.serverVersion
    ? 'rollout'
    : 'request-pin';
}

/** The overrides of a request in words: `serverVersion 0.19.1, env A=1, arg --x`. */
export function overridesText(o: ServerOverrides): string {
  return [
    ...(o.serverVersion ? [`serverVersion ${o.serverVersion}`] : []),
    ...Object.entries(o.env ?? {}).map(([k, v]) =>
      v === null ? `env ${k} removed` : `env ${k}=${v}`,
    ),
    ...(o.args ?? []).map(a => `arg ${a}`),
  ].join(', ');
}

function reasonText(
  reason: SyncReason,
  record: DeploymentRecord,
  modelsFile: string,
): string {
  const who = `revision ${record.revision} by ${
    record.actor
  }, ${record.createdAt.slice(0, 10)}`;
  if (reason === 'rollout')
    return `rollout to ${record.overrides.serverVersion} (${who})`;
  if (reason === 'request-pin')
    return `asked for by the request of ${who}: ${
      overridesText(record.overrides) || 'no overrides'
    }`;
  return `${modelsFile} changed since ${who}: the same request would apply this now`;
}

function summaryOf(sync: TargetSync): string {
  const counts = new Map<SyncReason, number>();
  for (const d of sync.differences)
    counts.set(d.reason, (counts.get(d.reason) ?? 0) + 1);
  const parts = [
    ...(sync.hold ? [sync.hold.text] : []),
    sync.state === 'unknown'
      ? 'live objects not read'
      : sync.differences.length === 0
      ? 'runs what a new deploy would apply'
      : `${sync.differences.length} difference${
          sync.differences.length === 1 ? '' : 's'
        } from what a new deploy would apply (${[...counts]
          .map(([r, n]) => `${r}: ${n}`)
          .join(', ')})`,
  ];
  return parts.join('; ');
}
