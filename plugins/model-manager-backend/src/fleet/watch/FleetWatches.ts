import type { KubernetesObject } from '@kubernetes/client-node';
import type {
  ClusterRegistry,
  DeletedObject,
  WrittenObjects,
} from '../../kubernetes';
import type { ClusterRead } from '../LiveObjectCache';
import type { ObjectRef, ObjectType } from '../managedKinds';
import { KindWatch, type KindSource, type KindWatchState } from './KindWatch';
import { kindSources } from './kindSource';

type ClusterWatches = {
  kinds: Map<string, KindWatch>;
  /** Bumped on every change of a store or a state: a read is rebuilt only when it moved. */
  version: number;
  /** This backend wrote to the cluster and no watch event has arrived since (see `changed`). */
  dirty: boolean;
  /**
   * That write as the API server answered it: once the stores hold each applied object at the
   * resourceVersion the write answered, and no longer hold each deleted one (or hold it at the
   * answered resourceVersion, finalizers pending), the write is seen (its own events may have
   * arrived before the write was marked, and the next event may be a bookmark a minute later).
   */
  written?: { applied: KubernetesObject[]; deleted: DeletedObject[] };
  read?: { version: number; kinds: string; value: ClusterRead };
};

const typeKey = (t: ObjectType) => `${t.apiVersion}/${t.kind}`;

/** The watches of one kind on one cluster, as tests and logs see them. */
export type WatchStatus = { kind: string } & KindWatchState;

export type FleetWatchesOptions = {
  clusters: Pick<ClusterRegistry, 'kubeConfig'>;
  labelSelector: string;
  /** Per LIST page and discovery request (the watch itself stays open). Default 10 s. */
  requestTimeoutMs?: number;
  /** First retry delay after a failed list or watch (doubles up to 30 s). Default 1 s. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** How a cluster's kinds are listed and watched (default: over its KubeConfig). */
  sources?: (cluster: string) => (type: ObjectType) => KindSource;
  now?: () => number;
};

/**
 * A watch cache of the managed objects, per cluster and kind: one {@link KindWatch} (LIST, then
 * WATCH from its resourceVersion, bookmarks, re-list on 410, backoff) each. Every backend replica
 * keeps its own (no leader): each sees every change, whoever made it. Watches start on a cluster's
 * first read and run until {@link stop}.
 *
 * A read answers from the watches only while all of the cluster's kinds are `live`: a cluster
 * whose watch is down (or still listing) gives `undefined`, and the caller reads it the old way,
 * so a cluster that cannot be reached is an error, and `Unknown`, while the others answer.
 */
export class FleetWatches {
  private readonly watched = new Map<string, ClusterWatches>();
  private readonly listeners = new Set<(cluster: string) => void>();
  private readonly sourcesOf = new Map<
    string,
    (type: ObjectType) => KindSource
  >();
  private stopped = false;

  private constructor(private readonly options: FleetWatchesOptions) {}

  static create(options: FleetWatchesOptions): FleetWatches {
    return new FleetWatches(options);
  }

  /**
   * The cluster as its watches hold it, when every kind's watch is live and no write of this
   * backend is still on its way back (see {@link changed}); undefined otherwise. Starts the watches
   * of kinds not watched yet. The same object is answered until something changes.
   */
  read(cluster: string, kinds: ObjectType[]): ClusterRead | undefined {
    const c = this.ensure(cluster, kinds);
    if (!c || !this.caughtUp(c)) return undefined;
    const watches = kinds.map(k => c.kinds.get(typeKey(k))!);
    // A kind read for a verdict only whose watch is down (forbidden, say) is left out: the
    // cluster is live without it, as a list of it would be (LiveObjectCache).
    const verdictOnlyDown = (i: number) =>
      kinds[i].verdictOnly === true && watches[i].state.phase === 'down';
    if (
      watches.some(
        (w, i) =>
          !['live', 'unserved'].includes(w.state.phase) && !verdictOnlyDown(i),
      )
    )
      return undefined;
    const key = kinds.map(typeKey).join(',');
    if (c.read?.version === c.version && c.read.kinds === key)
      return c.read.value;
    const value: ClusterRead = {
      cluster,
      objects: watches.flatMap((w, i) =>
        verdictOnlyDown(i) ? [] : [...w.objects()],
      ),
      unservedKinds: kinds
        .filter(
          (k, i) => watches[i].state.phase === 'unserved' && !k.verdictOnly,
        )
        .map(k => k.kind),
      readAt: new Date((this.options.now ?? Date.now)()),
      live: true,
    };
    c.read = { version: c.version, kinds: key, value };
    return value;
  }

  /** Settles once each kind's first list (and watch) has succeeded or failed. */
  async started(cluster: string, kinds: ObjectType[]): Promise<void> {
    const c = this.ensure(cluster, kinds);
    if (c)
      await Promise.all(kinds.map(k => c.kinds.get(typeKey(k))!.started()));
  }

  /**
   * The object as the cluster's live watch holds it (`null`: absent), or undefined when its kind is
   * not watched live there. Never reads.
   */
  get(cluster: string, object: ObjectRef): KubernetesObject | null | undefined {
    const c = this.watched.get(cluster);
    const w = c?.kinds.get(typeKey(object));
    if (!c || !this.caughtUp(c) || !w || w.state.phase !== 'live')
      return undefined;
    return w.get(object.name, object.namespace) ?? null;
  }

  /**
   * This backend changed the cluster (a deploy, rollback or undeploy): until its watches have
   * seen the write, its reads go the old way, so the caller sees its own write even when the
   * watch has not delivered it yet. Seen: a watch event arrived since, or (with `written`, the
   * write as the API server answered it) the stores hold every applied object at the
   * resourceVersion it was answered with, and every deleted one is gone from them (or, when
   * the DELETE answered the object itself because finalizers hold it, is held at that
   * resourceVersion). Without `written`, or with an applied object of unknown resourceVersion,
   * only a watch event tells.
   */
  changed(cluster: string, written?: WrittenObjects) {
    const c = this.watched.get(cluster);
    if (!c) return;
    c.dirty = true;
    const applied = written?.applied ?? [];
    const known = applied.filter(
      (o): o is KubernetesObject =>
        !!o?.metadata?.name && !!o.metadata.resourceVersion,
    );
    c.written =
      written && known.length === applied.length
        ? { applied: known, deleted: [...(written.deleted ?? [])] }
        : undefined;
  }

  /** Whether the cluster's stores have seen this backend's last write (see `changed`). */
  private caughtUp(c: ClusterWatches): boolean {
    if (!c.dirty) return true;
    const store = (o: { apiVersion: string; kind: string }) => {
      const w = c.kinds.get(typeKey(o));
      return w?.state.phase === 'live' ? w : undefined;
    };
    const seen =
      !!c.written &&
      c.written.applied.every(
        o =>
          store({ apiVersion: o.apiVersion!, kind: o.kind! })?.get(
            o.metadata!.name!,
            o.metadata!.namespace,
          )?.metadata?.resourceVersion === o.metadata!.resourceVersion,
      ) &&
      c.written.deleted.every(d => {
        const w = store(d);
        if (!w) return false;
        const held = w.get(d.name, d.namespace)?.metadata;
        return (
          !held ||
          (!!d.uid && held.uid !== d.uid) ||
          (!!d.resourceVersion && held.resourceVersion === d.resourceVersion)
        );
      });
    if (seen) {
      c.dirty = false;
      c.written = undefined;
    }
    return seen;
  }

  /** Called with the cluster's name after each change its watches see. */
  subscribe(listener: (cluster: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  status(cluster: string): WatchStatus[] {
    return [...(this.watched.get(cluster)?.kinds ?? [])].map(([kind, w]) => ({
      kind,
      ...w.state,
    }));
  }

  /** Ends every watch (plugin shutdown); reads go the old way after. */
  stop() {
    this.stopped = true;
    for (const c of this.watched.values())
      for (const w of c.kinds.values()) w.stop();
    this.watched.clear();
  }

  private ensure(
    cluster: string,
    kinds: ObjectType[],
  ): ClusterWatches | undefined {
    if (this.stopped) return undefined;
    let c = this.watched.get(cluster);
    if (!c) {
      c = { kinds: new Map(), version: 0, dirty: false };
      this.watched.set(cluster, c);
    }
    const entry = c;
    for (const type of kinds) {
      if (entry.kinds.has(typeKey(type))) continue;
      entry.kinds.set(
        typeKey(type),
        KindWatch.start({
          source: this.sources(cluster)(type),
          labelSelector: this.options.labelSelector,
          backoffMs: this.options.backoffMs,
          maxBackoffMs: this.options.maxBackoffMs,
          now: this.options.now,
          onChange: () => {
            entry.version++;
            for (const l of this.listeners) l(cluster);
          },
          onEvent: type_ => {
            if (type_ !== 'ERROR') {
              entry.dirty = false;
              entry.written = undefined;
            }
          },
        }),
      );
    }
    return entry;
  }

  /**
   * How the cluster's kinds are listed and watched (its KubeConfig, one connection pool): the
   * diagnosis watches of pods and Events use the same.
   */
  sources(cluster: string): (type: ObjectType) => KindSource {
    let sources = this.sourcesOf.get(cluster);
    if (!sources) {
      sources =
        this.options.sources?.(cluster) ??
        kindSources(this.options.clusters.kubeConfig(cluster), {
          requestTimeoutMs: this.options.requestTimeoutMs ?? 10_000,
        });
      this.sourcesOf.set(cluster, sources);
    }
    return sources;
  }
}
