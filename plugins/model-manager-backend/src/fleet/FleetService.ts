import { createHash, randomUUID } from 'node:crypto';
import type {
  Catalog,
  FleetQuery,
  FleetResponse,
  FleetTarget,
  RolloutPlan,
  RolloutPlanQuery,
} from '@model-manager/plugin-model-manager-common';
import type { KubernetesObject } from '@kubernetes/client-node';
import { NAME_LABEL } from '@model-manager/plugin-model-manager-common';
import type { DeploymentHistory, DeploymentRecord } from '../history';
import type { WrittenObjects } from '../kubernetes';
import type { DiagnosisReader } from '../diagnosis';
import type { PreflightService } from '../preflight';
import { buildFleet } from './buildFleet';
import { diagnoseNotReady } from './diagnoseNotReady';
import type { ClusterRead, LiveObjectCache } from './LiveObjectCache';
import { managedKinds, type ObjectRef } from './managedKinds';
import { planRollout } from './planRollout';
import { TargetMemo } from './targetMemo';
import { TwoPartJson } from './TwoPartJson';

/** How old a fleet read may be to stand for the read before a rollout's apply. */
const LAST_SEEN_MAX_AGE_MS = 120_000;

type Snapshot = {
  catalog: Catalog;
  reads: ClusterRead[];
  records: DeploymentRecord[];
  targets: FleetTarget[];
  /** This process's number for the build: with {@link INSTANCE}, its answers' validator. */
  id: number;
  /** `GET /fleet` answers built from it, as JSON text up to `readAt`'s value, by query. */
  json: Map<string, TwoPartJson>;
  jsonChars: number;
};

/**
 * Names this process in validators: a snapshot's number alone would repeat in another replica
 * behind the same load balancer, or after a restart, for another fleet.
 */
const INSTANCE = randomUUID().slice(0, 8);
/**
 * How much answer text a snapshot keeps, in characters (the pages ask a handful of queries: all, a
 * runtime, a model): five whole answers at 10,000 targets (13 MB each).
 */
const JSON_KEPT_CHARS = 64 * 2 ** 20;

/**
 * What runs where: the fleet of deployment targets built from the live clusters and the history,
 * and rollout plans over it. The live reads come from a {@link LiveObjectCache}; the fleet built
 * from them is kept as long as they are (one computation per cache period, shared by concurrent
 * requests), and dropped when this backend deploys.
 */
export class FleetService {
  private snapshot?: {
    key: ClusterRead[];
    catalog: Catalog;
    generation: number;
    /** When it was built (`now()`): its diagnosis is read again after `diagnosisMaxAgeMs`. */
    builtAt: number;
    /** `diagnosisWatch.version()` when built. */
    diagnosisVersion?: number;
    /**
     * Once built, when every diagnosis in it came from live watches: the clusters of its NotReady
     * targets (it holds until a change there, while they stay live).
     */
    diagnosedLive?: string[];
    value: Promise<Snapshot>;
  };
  private generation = 0;
  private builds = 0;
  /** Each target's description from the last build, reused where its inputs did not change. */
  private readonly memo = new TargetMemo();

  private constructor(
    private readonly options: {
      cache: LiveObjectCache;
      history: DeploymentHistory;
      catalog: () => Catalog;
      /** `modelManager.kubernetes.clusters.<name>.gatewayBaseUrl`, where set. */
      gatewayBaseUrl?: (cluster: string) => string | undefined;
      /** Reads why NotReady targets are not Ready (their reason becomes its headline). */
      diagnosis?: Pick<DiagnosisReader, 'diagnoseNamespace'>;
      /** Checks each target a plan moves (absent: plans carry no preflight). */
      preflight?: Pick<PreflightService, 'preflight' | 'session'>;
      /**
       * How long a built fleet's diagnosis is reused (default 5 s, the read cache's period). The
       * diagnosis reads pods and Events, which neither the read cache nor the watches hold: while a
       * cluster's watches are live its reads stay the same objects, and without this the reason
       * of a NotReady target would never change (a pod going from ImagePullBackOff to OOMKilled).
       */
      diagnosisMaxAgeMs?: number;
      /**
       * The watch cache of pods and Events under `diagnosis` (WatchedDiagnosis): while the clusters
       * of the NotReady targets are watched live, a built fleet's diagnosis holds until its
       * `version` moves (a pod or Event changed), not just `diagnosisMaxAgeMs`.
       */
      diagnosisWatch?: {
        version(): number;
        listed(): number;
        live(cluster: string): boolean;
      };
      now?: () => number;
    },
  ) {}

  static create(options: FleetService['options']): FleetService {
    return new FleetService(options);
  }

  async fleet(query: FleetQuery = {}): Promise<FleetResponse> {
    const snapshot = await this.current();
    const { items, errors } = this.answer(snapshot, query);
    return { items, errors, readAt: this.readAt(snapshot) };
  }

  /**
   * The answer of {@link FleetService.fleet} as JSON text, and a validator for it (a weak
   * ETag): the same fleet build and query give the same tag, and the text is kept with the
   * build, so a page that asks again with nothing changed costs neither a build nor a
   * serialization (10,000 targets: 13 MB of JSON), and one that revalidates (`If-None-Match`) is
   * answered 304 with no body. Only `readAt` may differ between two answers with the same tag (a
   * cluster answered by its live watches is current as of each answer): the text is kept up to
   * its value, with its gzip (TwoPartJson), so an answer compresses only its `readAt`.
   */
  async fleetJson(query: FleetQuery = {}): Promise<{
    etag: string;
    text: () => string;
    gzip: () => Buffer;
  }> {
    const snapshot = await this.current();
    const key = JSON.stringify([
      query.model,
      query.cluster,
      query.namespace,
      query.runtime,
      query.version,
      query.state,
    ]);
    const json = snapshot.json.get(key) ?? this.keepJson(snapshot, key, query);
    const tail = `${JSON.stringify(this.readAt(snapshot))}}`;
    const digest = createHash('sha1').update(key).digest('base64url');
    return {
      etag: `W/"fleet-${INSTANCE}-${snapshot.id}-${digest.slice(0, 12)}"`,
      text: () => json.text(tail),
      gzip: () => json.gzip(tail),
    };
  }

  /** Serializes the answer to `query` up to `readAt`'s value and keeps it with the snapshot. */
  private keepJson(
    snapshot: Snapshot,
    key: string,
    query: FleetQuery,
  ): TwoPartJson {
    const { items, errors } = this.answer(snapshot, query);
    const json = new TwoPartJson(
      `{"items":${JSON.stringify(items)},"errors":${JSON.stringify(
        errors,
      )},"readAt":`,
    );
    if (snapshot.jsonChars + json.head.length > JSON_KEPT_CHARS) {
      snapshot.json.clear();
      snapshot.jsonChars = 0;
    }
    snapshot.json.set(key, json);
    snapshot.jsonChars += json.head.length;
    return json;
  }

  private answer(
    snapshot: Snapshot,
    query: FleetQuery,
  ): Pick<FleetResponse, 'items' | 'errors'> {
    const items = snapshot.targets.filter(
      t =>
        (query.model === undefined || t.model === query.model) &&
        (query.cluster === undefined || t.cluster === query.cluster) &&
        (query.namespace === undefined || t.namespace === query.namespace) &&
        (query.runtime === undefined || t.runtime === query.runtime) &&
        (query.version === undefined || t.liveVersion === query.version) &&
        (query.state === undefined || t.state === query.state),
    );
    const errors = snapshot.reads
      .filter(
        r =>
          r.error &&
          (query.cluster === undefined || r.cluster === query.cluster),
      )
      .map(r => ({
        cluster: r.cluster,
        message: `cluster ${r.cluster} could not be read: ${r.error}`,
      }));
    return {
      // The fleet-wide answer leaves the manifests out of `sync` (per model they are kept).
      items: query.model === undefined ? items.map(withoutManifests) : items,
      errors,
    };
  }

  /** When the answer's live objects were read: a cluster answered by its live watches, now. */
  private readAt(snapshot: Snapshot): string {
    const now = new Date();
    const readAt = snapshot.reads.reduce((oldest, r) => {
      const at = r.live ? now : r.readAt;
      return at < oldest ? at : oldest;
    }, new Date(8.64e15));
    return (snapshot.reads.length ? readAt : now).toISOString();
  }

  /**
   * The live objects of one target as the fleet last read them (`error` when its cluster could not
   * be read), for history diffs against live.
   */
  async liveObjects(target: {
    model: string;
    cluster: string;
    namespace: string;
  }): Promise<{ objects?: KubernetesObject[]; error?: string }> {
    const read = (await this.current()).reads.find(
      r => r.cluster === target.cluster,
    );
    if (!read) return { error: `cluster ${target.cluster} is not configured` };
    if (read.error)
      return {
        error: `cluster ${target.cluster} could not be read: ${read.error}`,
      };
    return {
      objects: read.objects.filter(
        o =>
          o.metadata?.namespace === target.namespace &&
          o.metadata?.labels?.[NAME_LABEL] === target.model,
      ),
    };
  }

  async plan(query: RolloutPlanQuery): Promise<RolloutPlan> {
    const snapshot = await this.current();
    const plan = planRollout({
      catalog: snapshot.catalog,
      targets: snapshot.targets,
      reads: snapshot.reads,
      records: snapshot.records,
      query,
    });
    const preflight = this.options.preflight;
    if (preflight) {
      // One session for the plan: discovery, nodes and storage classes are read once per
      // cluster, quotas, limit ranges and secrets once per namespace, whatever the targets.
      const session = preflight.session();
      await Promise.all(
        plan.moves.map(async move => {
          move.preflight = (
            await preflight.preflight(move.model, move, move.overrides, {
              session,
            })
          ).checks;
        }),
      );
    }
    return plan;
  }

  /**
   * The object as the fleet's last read of its cluster saw it (see
   * {@link LiveObjectCache.lastSeen}); a rollout applies what the plan just listed without
   * reading each object again.
   */
  lastSeen(
    cluster: string,
    object: ObjectRef,
    maxAgeMs = LAST_SEEN_MAX_AGE_MS,
  ) {
    return this.options.cache.lastSeen(cluster, object, maxAgeMs);
  }

  /**
   * The object as the live watch of its cluster holds it (`null`: absent); undefined when its kind
   * is not watched live there (then read it). For the model status a rollout waits on.
   */
  watched(cluster: string, object: ObjectRef) {
    return this.options.cache.watched(cluster, object);
  }

  /** After a deploy, rollback or undeploy through this backend: the next answer reads again. */
  changed(cluster: string, written?: WrittenObjects) {
    this.generation++;
    this.options.cache.invalidate(cluster, written);
  }

  /**
   * Whether a built fleet's diagnosis still holds: always without one; with the pods and Events
   * watched live on every cluster it diagnosed, until a change there; otherwise for the cache
   * period.
   */
  private diagnosisHolds(
    s: NonNullable<FleetService['snapshot']>,
    now: number,
  ): boolean {
    const { diagnosis, diagnosisWatch: watch } = this.options;
    if (!diagnosis) return true;
    if (watch && s.diagnosisVersion !== watch.version()) return false;
    if (watch && s.diagnosedLive?.every(cluster => watch.live(cluster)))
      return true;
    return now - s.builtAt < (this.options.diagnosisMaxAgeMs ?? 5000);
  }

  private async current(): Promise<Snapshot> {
    const catalog = this.options.catalog();
    const reads = await this.options.cache.readAll(managedKinds(catalog));
    const s = this.snapshot;
    // The same reads (object identity: the cache gave the same ones), catalog and history
    // generation: the fleet built from them still holds.
    const now = (this.options.now ?? Date.now)();
    if (
      s &&
      s.catalog === catalog &&
      s.generation === this.generation &&
      this.diagnosisHolds(s, now) &&
      s.key.length === reads.length &&
      s.key.every((r, i) => r === reads[i])
    ) {
      return s.value;
    }
    const generation = this.generation;
    const value = this.options.history.latestPerTarget().then(async records => {
      const targets = buildFleet({
        catalog,
        reads,
        records,
        gatewayBaseUrl: this.options.gatewayBaseUrl,
        memo: this.memo,
      });
      if (this.options.diagnosis)
        await diagnoseNotReady({
          catalog,
          targets,
          records,
          reads,
          reader: this.options.diagnosis,
        });
      return {
        catalog,
        reads,
        records,
        targets,
        id: ++this.builds,
        json: new Map(),
        jsonChars: 0,
      };
    });
    const snapshot: NonNullable<FleetService['snapshot']> = {
      key: reads,
      catalog,
      generation,
      builtAt: now,
      diagnosisVersion: this.options.diagnosisWatch?.version(),
      value,
    };
    this.snapshot = snapshot;
    const listed = this.options.diagnosisWatch?.listed();
    value.then(
      built => {
        // A diagnosis listed during the build (its cluster's watches not live) is read again
        // after the cache period, whatever the watches do later.
        if (this.options.diagnosisWatch?.listed() !== listed) return;
        snapshot.diagnosedLive = [
          ...new Set(
            built.targets
              .filter(t => t.state === 'NotReady')
              .map(t => t.cluster),
          ),
        ];
      },
      () => undefined,
    );
    value.catch(() => {
      if (this.snapshot?.value === value) this.snapshot = undefined;
    });
    return value;
  }
}

function withoutManifests(target: FleetTarget): FleetTarget {
  if (!target.sync) return target;
  const { manifests: _runs, ...runs } = target.sync.runs;
  const { manifests: _new, ...newDeploy } = target.sync.newDeploy;
  return { ...target, sync: { ...target.sync, runs, newDeploy } };
}
