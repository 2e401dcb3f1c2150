import type { KubernetesObject } from '@kubernetes/client-node';
import { NotFoundError } from '@backstage/errors';
import {
  diffObject,
  NAME_LABEL,
  type Catalog,
  type DeploymentRecord,
  type FleetTarget,
  type ObjectChanges,
  type RolloutMove,
  type RolloutPlan,
  type RolloutPlanQuery,
  type RolloutStay,
} from '@model-manager/plugin-model-manager-common';
import { makeRenderer } from '../sync/makeRenderer';
import { effectiveOverrides } from './buildFleet';
import type { ClusterRead } from './LiveObjectCache';
import { isModelObject, isTransient } from './managedKinds';

export interface PlanInput {
  catalog: Catalog;
  targets: FleetTarget[];
  reads: ClusterRead[];
  records: DeploymentRecord[];
  query: RolloutPlanQuery;
}

/**
 * The rollout of a runtime: every target of it whose live objects differ from what would be
 * applied now — after a `default_version` change, or toward `query.version` — each with its
 * field-level changes; and the targets that would not move, and why (pinned by models.yaml, held
 * at a version a rollout or a request set (`sync.hold`, moved only with `query.includeHeld`), a
 * flat runtime, up to date, their cluster unreadable, their model no longer resolving). A moved
 * held target is applied without the held version (or with `query.version`): `releasesHold`.
 *
 * @throws NotFoundError for an unknown runtime or version.
 */
export function planRollout(input: PlanInput): RolloutPlan {
  const { catalog, query } = input;
  const runtime = catalog.runtimes[query.runtime];
  if (!Object.prototype.hasOwnProperty.call(catalog.runtimes, query.runtime)) {
    throw new NotFoundError(
      `unknown runtime '${query.runtime}'; runtimes: ${Object.keys(
        catalog.runtimes,
      ).join(', ')}`,
    );
  }
  if (query.version !== undefined) {
    if (runtime.versioned && !runtime.config.versions?.[query.version]) {
      throw new NotFoundError(
        `unknown version '${query.version}' for runtime ${
          runtime.name
        }; versions: ${Object.keys(runtime.config.versions ?? {}).join(', ')}`,
      );
    }
  }
  const records = new Map(
    input.records.map(r => [`${r.cluster}/${r.namespace}/${r.model}`, r]),
  );
  const live = liveIndex(input.reads);
  const plan: RolloutPlan = {
    runtime: runtime.name,
    ...(query.version ? { version: query.version } : {}),
    moves: [],
    stays: [],
    errors: [],
  };
  const errors = new Set<string>();
  const render = makeRenderer(catalog);

  for (const target of input.targets) {
    if (target.runtime !== runtime.name) continue;
    if (query.cluster && target.cluster !== query.cluster) continue;
    if (query.namespace && target.namespace !== query.namespace) continue;
    const where = {
      model: target.model,
      cluster: target.cluster,
      namespace: target.namespace,
      ...(target.liveVersion ? { liveVersion: target.liveVersion } : {}),
    };
    const stay = (why: RolloutStay['why'], reason: string) =>
      plan.stays.push({ ...where, why, reason });
    const read = input.reads.find(r => r.cluster === target.cluster);
    if (target.state === 'Unknown') {
      if (read?.error && !errors.has(target.cluster)) {
        errors.add(target.cluster);
        plan.errors.push({ cluster: target.cluster, message: read.error });
      }
      stay(
        'unreachable',
        target.reason ?? `cluster ${target.cluster} could not be read`,
      );
      continue;
    }
    const record = records.get(
      `${target.cluster}/${target.namespace}/${target.model}`,
    );
    const overrides = { ...effectiveOverrides(record) };
    const model = catalog.models[target.model];
    if (!model) {
      stay(
        'unresolvable',
        `model ${target.model} is no longer in ${catalog.modelsFile}; undeploy it or add it back`,
      );
      continue;
    }
    if (query.version !== undefined && !runtime.versioned) {
      stay(
        'flat-runtime',
        `runtime ${runtime.name} is flat (it has no versions:), so it cannot move to version ${query.version}; leave version out to apply what the catalog resolves now`,
      );
      continue;
    }
    if (query.version !== undefined) {
      // A pin to the very version rolled out holds nothing back.
      const pin = model.config.server.server_version;
      if (pin !== undefined && pin !== query.version) {
        stay(
          'pinned-by-model',
          `pinned by ${catalog.modelsFile}: models.${target.model}.server.server_version is ${model.config.server.server_version}; remove the pin to let it move`,
        );
        continue;
      }
    }
    // A version a rollout or a request set is held (see holdOf): the plan moves it only when asked,
    // except a rollout's hold on the very version models.yaml now resolves to (the promote step:
    // default_version moved to it), which a rollout without a version releases.
    const hold = target.sync?.hold;
    let releasesHold: RolloutMove['releasesHold'];
    if (hold && hold.version !== (query.version ?? hold.catalogVersion)) {
      if (!query.includeHeld) {
        plan.stays.push({
          ...where,
          why: 'held',
          reason: `${hold.text}; plan with includeHeld to move it${
            query.version ? ` to ${query.version}` : ''
          }`,
          hold,
        });
        continue;
      }
      releasesHold = hold;
      delete overrides.serverVersion;
    } else if (
      hold &&
      query.version === undefined &&
      (hold.by === 'rollout' || query.includeHeld)
    ) {
      releasesHold = hold;
      delete overrides.serverVersion;
    }
    if (query.version !== undefined) overrides.serverVersion = query.version;
    const now = render(target.model, target.namespace, overrides);
    if ('error' in now) {
      stay('unresolvable', now.error);
      continue;
    }
    const liveObjects =
      live.get(`${target.cluster}/${target.namespace}/${target.model}`) ??
      new Map();
    const changes = now.objects
      .filter(isModelObject)
      .flatMap<ObjectChanges>(o => {
        const liveObject = liveObjects.get(`${o.kind}/${o.name}`);
        const header = { kind: o.kind, name: o.name, namespace: o.namespace };
        if (!liveObject)
          return isTransient(o)
            ? []
            : [{ ...header, change: 'added', fields: [] }];
        const fields = diffObject(o.manifest, liveObject);
        return fields.length > 0
          ? [{ ...header, change: 'changed', fields }]
          : [];
      });
    if (changes.length === 0 && !releasesHold) {
      stay(
        'up-to-date',
        `already runs what would be applied${
          now.version ? ` (version ${now.version})` : ''
        }`,
      );
      continue;
    }
    plan.moves.push({
      model: target.model,
      cluster: target.cluster,
      namespace: target.namespace,
      ...(target.liveVersion ? { fromVersion: target.liveVersion } : {}),
      ...(now.version ? { toVersion: now.version } : {}),
      overrides,
      changes,
      ...(releasesHold ? { releasesHold } : {}),
    });
  }
  if (!runtime.versioned && query.version === undefined) {
    // Flat runtimes have no version axis: say so once for targets that stay.
    for (const s of plan.stays)
      if (s.why === 'up-to-date')
        s.reason += `; runtime ${runtime.name} is flat, so only its plumbing, env and args can move`;
  }
  return plan;
}

function liveIndex(
  reads: ClusterRead[],
): Map<string, Map<string, KubernetesObject>> {
  const index = new Map<string, Map<string, KubernetesObject>>();
  for (const read of reads) {
    for (const o of read.objects) {
      const model = o.metadata?.labels?.[NAME_LABEL];
      if (!model || !o.metadata?.namespace) continue;
      const key = `${read.cluster}/${o.metadata.namespace}/${model}`;
      let objects = index.get(key);
      if (!objects) index.set(key, (objects = new Map()));
      objects.set(`${o.kind}/${o.metadata.name}`, o);
    }
  }
  return index;
}
