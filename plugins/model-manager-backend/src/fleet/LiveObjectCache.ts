import type { KubernetesObject } from '@kubernetes/client-node';
import {
  MANAGED_BY_LABEL,
  MANAGED_BY_VALUE,
} from '@model-manager/plugin-model-manager-common';
import type {
  ClusterRegistry,
  ServerSideApplier,
  WrittenObjects,
} from '../kubernetes';
import type { ObjectRef, ObjectType } from './managedKinds';
import type { FleetWatches } from './watch';

/** What one cluster held when read: the managed objects, or why it could not be read. */
export type ClusterRead = {
  cluster: string;
  objects: KubernetesObject[];
  /** Set when the cluster could not be read; `objects` is then empty. */
  error?: string;
  /** Kinds the cluster does not serve (CRD not installed). */
  unservedKinds: string[];
  readAt: Date;
  /** Answered by the cluster's live watches: current as of now, not as of `readAt`. */
  live?: boolean;
};

const objectKey = (
  apiVersion: string,
  kind: string,
  namespace: string | undefined,
  name: string,
) => `${apiVersion}\u0000${kind}\u0000${namespace ?? ''}\u0000${name}`;

export const MANAGED_SELECTOR = `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE}`;

/**
 * Reads every object model-manager manages, one LIST per cluster and kind with the label selector
 * `app.kubernetes.io/managed-by=model-manager` (objects applied by another replica, the CLI or a
 * GitOps sync are found too). Reads are kept for `ttlMs` and shared by concurrent callers; a
 * deploy through this backend drops its cluster's copy.
 *
 * With `watches`, a cluster whose watches are live is answered from them and never listed; the
 * LIST above is the fallback while they start, while they are down, and right after this backend
 * wrote to the cluster (until the watch brings the write back).
 */
export class LiveObjectCache {
  private readonly entries = new Map<
    string,
    { at: number; read: Promise<ClusterRead> }
  >();
  /** Per cluster, its last successful read (kept when invalidated), indexed by object. */
  private readonly latest = new Map<
    string,
    {
      at: number;
      kinds: Set<string>;
      read: ClusterRead;
      index?: Map<string, KubernetesObject>;
    }
  >();

  private constructor(
    private readonly options: {
      applier: ServerSideApplier;
      clusters: ClusterRegistry;
      ttlMs: number;
      now: () => number;
      watches?: FleetWatches;
    },
  ) {}

  static create(options: {
    applier: ServerSideApplier;
    clusters: ClusterRegistry;
    /** How long a read is reused (default 5 s). */
    ttlMs?: number;
    now?: () => number;
    /** The watch cache (absent: every read lists). */
    watches?: FleetWatches;
  }): LiveObjectCache {
    return new LiveObjectCache({
      ...options,
      ttlMs: options.ttlMs ?? 5000,
      now: options.now ?? Date.now,
    });
  }

  /** Every configured cluster, read (or taken from the cache) concurrently. */
  readAll(kinds: ObjectType[]): Promise<ClusterRead[]> {
    return Promise.all(
      this.options.clusters.list().map(c => this.read(c.name, kinds)),
    );
  }

  read(cluster: string, kinds: ObjectType[]): Promise<ClusterRead> {
    const watches = this.options.watches;
    if (!watches) return this.readListed(cluster, kinds);
    let live: ClusterRead | undefined;
    try {
      live = watches.read(cluster, kinds);
    } catch {
      // The cluster's watches cannot start (no KubeConfig for it): list, which says why.
      return this.readListed(cluster, kinds);
    }
    if (live) return Promise.resolve(live);
    // First use of the cluster: its watches' first LIST is this read (no second one); a cluster
    // whose watches are down (or that this backend just wrote to) is listed as before.
    return watches
      .started(cluster, kinds)
      .then(
        () => watches.read(cluster, kinds) ?? this.readListed(cluster, kinds),
      );
  }

  /**
   * The object as the cluster's live watch holds it (`null`: absent); undefined when there is no
   * live watch of its kind there. Never reads.
   */
  watched(
    cluster: string,
    object: ObjectRef,
  ): KubernetesObject | null | undefined {
    return this.options.watches?.get(cluster, object);
  }

  private readListed(
    cluster: string,
    kinds: ObjectType[],
  ): Promise<ClusterRead> {
    const key = `${cluster}\u0000${kinds
      .map(k => `${k.apiVersion}/${k.kind}`)
      .join(',')}`;
    const now = this.options.now();
    const entry = this.entries.get(key);
    if (entry && now - entry.at < this.options.ttlMs) return entry.read;
    const read = this.list(cluster, kinds);
    this.entries.set(key, { at: now, read });
    return read;
  }

  /**
   * The object as the last successful read of its cluster saw it, if that read is at most
   * `maxAgeMs` old and listed its kind: the live object, `null` when it was absent, `undefined`
   * when not known. Never reads; unlike {@link read}, not dropped by {@link invalidate} (objects
   * this backend changed since then are seen as they were).
   */
  lastSeen(
    cluster: string,
    object: ObjectRef,
    maxAgeMs: number,
  ): KubernetesObject | null | undefined {
    const watched = this.watched(cluster, object);
    if (watched !== undefined) return watched;
    const latest = this.latest.get(cluster);
    if (
      !latest ||
      this.options.now() - latest.at > maxAgeMs ||
      !latest.kinds.has(`${object.apiVersion}/${object.kind}`)
    )
      return undefined;
    latest.index ??= new Map(
      latest.read.objects.map(o => [
        objectKey(
          o.apiVersion!,
          o.kind!,
          o.metadata?.namespace,
          o.metadata?.name ?? '',
        ),
        o,
      ]),
    );
    return (
      latest.index.get(
        objectKey(
          object.apiVersion,
          object.kind,
          object.namespace,
          object.name,
        ),
      ) ?? null
    );
  }

  /**
   * Forgets what was read from a cluster (after a deploy or undeploy there); `written`: the
   * objects as the API server answered the write, by which the watches tell they have seen it.
   */
  invalidate(cluster: string, written?: WrittenObjects) {
    this.options.watches?.changed(cluster, written);
    for (const key of this.entries.keys()) {
      if (key.startsWith(`${cluster}\u0000`)) this.entries.delete(key);
    }
  }

  private async list(
    cluster: string,
    kinds: ObjectType[],
  ): Promise<ClusterRead> {
    const readAt = new Date(this.options.now());
    try {
      const lists = await Promise.all(
        kinds.map(k => {
          const listed = this.options.applier.list(
            cluster,
            k,
            MANAGED_SELECTOR,
          );
          // A kind read for a verdict only: unreadable is no verdict, not an unreadable cluster.
          return k.verdictOnly ? listed.catch(() => undefined) : listed;
        }),
      );
      const unservedKinds = kinds
        .filter((k, i) => lists[i] === undefined && !k.verdictOnly)
        .map(k => k.kind);
      const read = {
        cluster,
        objects: lists.flatMap(l => l ?? []),
        unservedKinds,
        readAt,
      };
      const previous = this.latest.get(cluster);
      if (!previous || previous.at <= readAt.getTime()) {
        this.latest.set(cluster, {
          at: readAt.getTime(),
          kinds: new Set(
            kinds
              .filter((_, i) => lists[i] !== undefined)
              .map(k => `${k.apiVersion}/${k.kind}`),
          ),
          read,
        });
      }
      return read;
    } catch (e) {
      return {
        cluster,
        objects: [],
        unservedKinds: [],
        error: (e as Error).message,
        readAt,
      };
    }
  }
}
