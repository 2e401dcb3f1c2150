import type { KubernetesObject } from '@kubernetes/client-node';
import {
  diffManifests,
  diffObject,
  isServerKind,
  statusReadingOf,
  NAME_LABEL,
  renderManifests,
  resolveServer,
  RUNTIME_LABEL,
  selectEndpoint,
  SERVER_VERSION_LABEL,
  serverImageOf,
  summarizeKServeStatus,
  type Catalog,
  type DeploymentRecord,
  type FleetTarget,
  type ObjectChanges,
  type RenderedObject,
  type ServerOverrides,
} from '@model-manager/plugin-model-manager-common';
import type { ClusterRead } from './LiveObjectCache';
import { isModelObject, isTransient } from './managedKinds';

const targetKey = (cluster: string, namespace: string, model: string) =>
  `${cluster}\u0000${namespace}\u0000${model}`;
const objectKey = (o: { kind: string; name: string }) => `${o.kind}/${o.name}`;

/**
 * The overrides a target's last revision would be applied with today. A version a rollout moved
 * the target to is not a pin (the rollout's serverVersion is dropped); a user's is.
 */
export function effectiveOverrides(
  record: DeploymentRecord | undefined,
): ServerOverrides {
  if (!record) return {};
  if (record.action !== 'rollout') return record.overrides;
  const { serverVersion: _rolledTo, ...rest } = record.overrides;
  return rest;
}

/** What the catalog renders now for a model at a namespace, or why it cannot. */
export function renderNow(
  catalog: Catalog,
  model: string,
  overrides: ServerOverrides,
  namespace: string,
):
  | {
      objects: RenderedObject[];
      version?: string;
      image: string;
      apiPrefix?: string;
    }
  | { error: string } {
  try {
    const server = resolveServer(catalog, model, overrides, { locate: false });
    return {
      objects: renderManifests(catalog, server, { namespace }),
      version: server.version?.value,
      image: server.image.value,
      apiPrefix: server.plumbing.api_prefix?.value,
    };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

export interface FleetInput {
  catalog: Catalog;
  reads: ClusterRead[];
  /** The last record that changed each target (see DeploymentHistory.latestPerTarget). */
  records: DeploymentRecord[];
  /** `modelManager.kubernetes.clusters.<name>.gatewayBaseUrl`, where set. */
  gatewayBaseUrl?: (cluster: string) => string | undefined;
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

  const keys = new Set(live.keys());
  for (const [key, record] of lastRecord)
    if (record.action !== 'undeploy') keys.add(key);

  const items: FleetTarget[] = [];
  for (const key of keys) {
    const [cluster, namespace, model] = key.split('\u0000');
    const record = lastRecord.get(key);
    items.push(
      describeTarget({
        catalog,
        cluster,
        namespace,
        model,
        objects: live.get(key) ?? [],
        record: record && record.action !== 'undeploy' ? record : undefined,
        read: readOf.get(cluster),
        gatewayBaseUrl: input.gatewayBaseUrl?.(cluster),
      }),
    );
  }
  return items.sort(
    (a, b) =>
      a.model.localeCompare(b.model) ||
      a.cluster.localeCompare(b.cluster) ||
      a.namespace.localeCompare(b.namespace),
  );
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
}): FleetTarget {
  const { catalog, cluster, namespace, model, objects, record } = t;
  const main = objects.find(o => isServerKind(catalog, o.kind ?? ''));
  const labelled = main ?? objects[0];
  const known = Object.prototype.hasOwnProperty.call(catalog.models, model);
  const now = known
    ? renderNow(catalog, model, effectiveOverrides(record), namespace)
    : { error: `model ${model} is no longer in ${catalog.modelsFile}` };
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
    ...(main?.metadata?.labels?.[SERVER_VERSION_LABEL]
      ? { liveVersion: main.metadata.labels[SERVER_VERSION_LABEL] }
      : {}),
    ...(main && serverImageOf(main as any, reading)
      ? { liveImage: serverImageOf(main as any, reading) }
      : {}),
    ...('error' in now
      ? {}
      : {
          ...(now.version ? { resolvedVersion: now.version } : {}),
          resolvedImage: now.image,
        }),
    state: 'NotReady',
    drifted: false,
    drift: [],
    outdated: false,
    outdatedChanges: [],
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
  };

  if (!t.read || t.read.error) {
    target.state = 'Unknown';
    target.reason = t.read
      ? `cluster ${cluster} could not be read: ${t.read.error}`
      : `cluster ${cluster} is not configured in kubernetes.clusterLocatorMethods`;
    if (record && !('error' in now))
      setOutdated(target, record.manifests, now.objects);
    return target;
  }

  const liveByKey = new Map(
    objects.map(o => [
      objectKey({ kind: o.kind!, name: o.metadata!.name! }),
      o,
    ]),
  );
  const expected = (
    record?.manifests ?? ('error' in now ? [] : now.objects)
  ).filter(o => isModelObject(o) && !isTransient(o));
  const missing = expected.filter(o => !liveByKey.has(objectKey(o)));
  const summary = main
    ? summarizeKServeStatus(main as Record<string, any>, reading)
    : undefined;
  // Where clients call it: KServe's URL, else the cluster's gateway (selectEndpoint's rules).
  const endpoint = main
    ? selectEndpoint({
        live: main as Record<string, any>,
        gatewayBaseUrl: t.gatewayBaseUrl,
        cluster,
        apiPrefix: 'error' in now ? undefined : now.apiPrefix,
        engine: catalog.runtimes[runtime]?.profile.engine,
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
  }

  if (record) {
    // Drift: what someone changed on the live objects since we applied them.
    target.drift = record.manifests
      .filter(isModelObject)
      .flatMap<ObjectChanges>(o => {
        const liveObject = liveByKey.get(objectKey(o));
        const fields = liveObject ? diffObject(o.manifest, liveObject) : [];
        return fields.length > 0
          ? [
              {
                kind: o.kind,
                name: o.name,
                namespace: o.namespace,
                change: 'changed',
                fields,
              },
            ]
          : [];
      });
    target.drifted = target.drift.length > 0;
    if ('error' in now) {
      target.outdated = true;
      target.outdatedError = now.error;
    } else {
      setOutdated(target, record.manifests, now.objects);
    }
  } else if ('error' in now) {
    target.outdatedError = now.error;
  } else {
    // Applied outside this portal (CLI, GitOps): what was applied is unknown, so the live objects
    // are compared with what the catalog renders now.
    target.outdatedChanges = now.objects
      .filter(o => isModelObject(o) && liveByKey.has(objectKey(o)))
      .flatMap<ObjectChanges>(o => {
        const fields = diffObject(o.manifest, liveByKey.get(objectKey(o)));
        return fields.length > 0
          ? [
              {
                kind: o.kind,
                name: o.name,
                namespace: o.namespace,
                change: 'changed',
                fields,
              },
            ]
          : [];
      });
    target.outdated = target.outdatedChanges.length > 0;
  }
  return target;
}

function setOutdated(
  target: FleetTarget,
  applied: RenderedObject[],
  now: RenderedObject[],
) {
  target.outdatedChanges = diffManifests(
    applied.filter(isModelObject),
    now.filter(isModelObject),
  );
  target.outdated = target.outdatedChanges.length > 0;
}
