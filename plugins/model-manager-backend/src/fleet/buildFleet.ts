import type { KubernetesObject } from '@kubernetes/client-node';
import {
  compareTargets,
  isServerKind,
  progressObjectOf,
  statusReadingOf,
  NAME_LABEL,
  RUNTIME_LABEL,
  selectEndpoint,
  summarizeKServeStatus,
  type Catalog,
  type DeploymentRecord,
  type FleetTarget,
  type JobProgress,
  type ObjectChanges,
  type RenderedObject,
  type ServerOverrides,
  type SyncDifference,
} from '@model-manager/plugin-model-manager-common';
import { makeRenderer } from '../sync/makeRenderer';
import { syncState } from '../sync/syncState';
import type { ClusterRead } from './LiveObjectCache';
import { isModelObject, isTransient } from './managedKinds';
import type { TargetMemo } from './targetMemo';

const targetKey = (cluster: string, namespace: string, model: string) =>
  `${cluster}\u0000${namespace}\u0000${model}`;
const objectKey = (o: { kind: string; name: string }) => `${o.kind}/${o.name}`;

/**
 * The overrides a target's last revision would be applied with today: all of them. A server
 * version set by a rollout is a hold, like a request's (see `holdOf`): the target stays on it until
 * a plan asked with `includeHeld` moves it, or a deploy without a server version releases it. A
 * rollout without a version records none, so it holds nothing.
 */
export function effectiveOverrides(
  record: DeploymentRecord | undefined,
): ServerOverrides {
  return record?.overrides ?? {};
}

export interface FleetInput {
  catalog: Catalog;
  reads: ClusterRead[];
  /** The last record that changed each target (see DeploymentHistory.latestPerTarget). */
  records: DeploymentRecord[];
  /** `modelManager.kubernetes.clusters.<name>.gatewayBaseUrl`, where set. */
  gatewayBaseUrl?: (cluster: string) => string | undefined;
  /**
   * The previous build's targets, reused where their inputs did not change (the description
   * only: the diagnosis, which reads pods and Events, runs after the build on every NotReady one).
   */
  memo?: TargetMemo;
}

/**
 * Every deployment target (model, cluster, namespace): those found live on the clusters, and
 * those our history says are deployed (on an unreadable cluster they are `Unknown`; where their
 * objects are gone, `Missing`). Pure: the live reads and the history come in.
 */
export function buildFleet(input: FleetInput): FleetTarget[] {
  const { catalog, reads, records } = input;
  const live = new Map<string, KubernetesObject[]>();
  for (const read of reads) {
    for (const object of read.objects) {
      const model = object.metadata?.labels?.[NAME_LABEL];
      const namespace = object.metadata?.namespace;
      if (!model || !namespace) continue;
      const key = targetKey(read.cluster, namespace, model);
      const group = live.get(key);
      if (group) group.push(object);
      else live.set(key, [object]);
    }
  }
  const lastRecord = new Map(
    records.map(r => [targetKey(r.cluster, r.namespace, r.model), r]),
  );
  const readOf = new Map(reads.map(r => [r.cluster, r]));
  const render = makeRenderer(catalog);

  const keys = new Set(live.keys());
  for (const [key, record] of lastRecord)
    if (record.action !== 'undeploy') keys.add(key);

  const items: FleetTarget[] = [];
  input.memo?.begin(catalog);
  for (const key of keys) {
    const [cluster, namespace, model] = key.split('\u0000');
    const last = lastRecord.get(key);
    const record = last && last.action !== 'undeploy' ? last : undefined;
    const read = readOf.get(cluster);
    const objects = live.get(key) ?? [];
    const gatewayBaseUrl = input.gatewayBaseUrl?.(cluster);
    const describe = () =>
      describeTarget({
        catalog,
        cluster,
        namespace,
        model,
        objects,
        record,
        read,
        gatewayBaseUrl,
        render,
      });
    items.push(
      input.memo
        ? input.memo.get(
            key,
            {
              readable: !!read && !read.error,
              record,
              objects,
              gatewayBaseUrl,
            },
            describe,
          )
        : describe(),
    );
  }
  input.memo?.end();
  return items.sort(compareTargets);
}

function describeTarget(t: {
  catalog: Catalog;
  cluster: string;
  namespace: string;
  model: string;
  objects: KubernetesObject[];
  record?: DeploymentRecord;
  read?: ClusterRead;
  gatewayBaseUrl?: string;
  render: ReturnType<typeof makeRenderer>;
}): FleetTarget {
  const { catalog, cluster, namespace, model, objects, record } = t;
  const main = objects.find(o => isServerKind(catalog, o.kind ?? ''));
  const labelled = main ?? objects[0];
  const known = Object.prototype.hasOwnProperty.call(catalog.models, model);
  const readable = !!t.read && !t.read.error;
  const { sync, drift, catalogChanges, catalogError } = syncState({
    catalog,
    model,
    namespace,
    live: readable ? objects : undefined,
    record,
    render: overrides => t.render(model, namespace, overrides),
  });
  const now = t.render(model, namespace, effectiveOverrides(record));
  const outdatedError =
    catalogError ?? ('error' in now ? now.error : undefined);
  const recordedMain = record?.manifests.find(o =>
    isServerKind(catalog, o.kind),
  );
  const runtime =
    labelled?.metadata?.labels?.[RUNTIME_LABEL] ??
    (recordedMain?.manifest as KubernetesObject | undefined)?.metadata
      ?.labels?.[RUNTIME_LABEL] ??
    (known ? catalog.models[model].config.server.runtime : 'unknown');
  const reading = statusReadingOf(catalog, runtime);

  const target: FleetTarget = {
    model,
    cluster,
    namespace,
    runtime,
    ...(sync.runs.version ? { liveVersion: sync.runs.version } : {}),
    ...(sync.runs.image ? { liveImage: sync.runs.image } : {}),
    ...('error' in now
      ? {}
      : {
          ...(now.version ? { resolvedVersion: now.version } : {}),
          ...(now.image ? { resolvedImage: now.image } : {}),
        }),
    state: 'NotReady',
    drifted: drift.length > 0,
    drift,
    // With a revision on record: what the same request renders now; without: live vs a new deploy.
    outdated: record
      ? catalogChanges.length > 0 || catalogError !== undefined
      : sync.differences.length > 0,
    outdatedChanges: record
      ? catalogChanges
      : asObjectChanges(sync.differences),
    ...(outdatedError !== undefined ? { outdatedError } : {}),
    ...(record?.revision !== undefined
      ? {
          revision: {
            revision: record.revision,
            action: record.action,
            actor: record.actor,
            at: record.createdAt,
            overrides: record.overrides,
            ...(record.serverVersion
              ? { serverVersion: record.serverVersion }
              : {}),
          },
        }
      : {}),
    ...(known ? {} : { unknownModel: true }),
    sync,
  };

  if (!readable) {
    target.state = 'Unknown';
    target.reason = t.read
      ? `cluster ${cluster} could not be read: ${t.read.error}`
      : `cluster ${cluster} is not configured in kubernetes.clusterLocatorMethods`;
    return target;
  }

  const liveByKey = new Set(
    objects.map(o => objectKey({ kind: o.kind!, name: o.metadata!.name! })),
  );
  const expected = (
    record?.manifests ?? ('error' in now ? [] : now.objects)
  ).filter(o => isModelObject(o) && !isTransient(o));
  const missing = expected.filter(o => !liveByKey.has(objectKey(o)));
  const summary = main
    ? summarizeKServeStatus(
        main as Record<string, any>,
        reading,
        objects as Array<Record<string, any>>,
      )
    : undefined;
  // Where clients call it: KServe's URL, else the cluster's gateway (selectEndpoint's rules).
  const endpoint = main
    ? selectEndpoint({
        live: main as Record<string, any>,
        gatewayBaseUrl: t.gatewayBaseUrl,
        cluster,
        apiPrefix: 'error' in now ? undefined : now.apiPrefix,
        engine: catalog.runtimes[runtime]?.profile.engine,
        profile: catalog.runtimes[runtime]?.profile,
        routing: catalog.runtimes[runtime]?.config.routing,
      })
    : undefined;
  if (endpoint?.baseUrl) target.endpoint = endpoint.baseUrl;
  if (missing.length > 0) {
    target.state = 'Missing';
    target.reason = `gone from the cluster: ${missing
      .map(o => `${o.kind} ${namespace}/${o.name}`)
      .join(', ')}; deploy again to recreate ${
      missing.length === 1 ? 'it' : 'them'
    }`;
  } else if (summary?.ready === true) {
    target.state = 'Ready';
  } else {
    target.state = 'NotReady';
    target.reason = summary
      ? summary.problems.join(' ')
      : `no KServe object of this model is on the cluster (found: ${objects
          .map(o => o.kind)
          .join(', ')})`;
    if (summary && summary.ready === undefined) target.awaitingKServe = true;
    const download = downloadOf({
      catalog,
      runtime,
      manifests: record?.manifests ?? ('error' in now ? [] : now.objects),
      objects,
    });
    if (download && download.phase !== 'complete') {
      target.download = download;
      if (download.phase === 'failed') {
        // Waiting longer will not make it Ready: a failed Job never runs again.
        target.reason = `Weights download ${download.name}: ${download.message}`;
        delete target.awaitingKServe;
      } else if (target.awaitingKServe) {
        // What the model waits for, before KServe's silence (the Serving tab's headline too).
        target.reason = `Weights download ${download.name}: ${download.message} ${target.reason}`;
      }
    }
  }
  return target;
}

/**
 * The weights download's progress, from the live object that reports the model's preparation (the
 * engine profile's `progress:` object, e.g. OVMS's `ovms --pull` Job), read without its pods: the
 * watch cache holds the model's own objects, not pods. The Serving tab reads the pods too
 * (`GET /models/:name/status`); the Job's counts and conditions already tell pending, running and
 * failed apart (`summarizeJob`).
 */
function downloadOf(t: {
  catalog: Catalog;
  runtime: string;
  manifests: readonly RenderedObject[];
  objects: KubernetesObject[];
}): JobProgress | undefined {
  const found = progressObjectOf(t.catalog, t.runtime, t.manifests);
  if (!found) return undefined;
  const live = t.objects.find(
    o =>
      o.kind === found.reader.kind &&
      o.apiVersion === found.reader.apiVersion &&
      o.metadata?.name === found.object.name,
  );
  return live
    ? found.reader.summarize(live as Record<string, any>, [])
    : undefined;
}

/** Differences grouped by object, as the older `outdatedChanges` lists them. */
function asObjectChanges(differences: SyncDifference[]): ObjectChanges[] {
  const byObject = new Map<string, ObjectChanges>();
  for (const d of differences) {
    if (d.path === '.') continue;
    const key = objectKey(d);
    let o = byObject.get(key);
    if (!o) {
      o = {
        kind: d.kind,
        name: d.name,
        ...(d.namespace ? { namespace: d.namespace } : {}),
        change: 'changed',
        fields: [],
      };
      byObject.set(key, o);
    }
    o.fields.push({
      path: d.path,
      ...(d.newDeploy !== undefined ? { rendered: d.newDeploy } : {}),
      ...(d.runs !== undefined ? { live: d.runs } : {}),
    });
  }
  return [...byObject.values()];
}
