/**
 * In-memory storage of every object, with a global resourceVersion counter
 * and change events for watches. Tests reach it as `server.store`.
 */
import crypto from 'node:crypto';
import {
  JsonObject,
  compareStrings,
  deepClone,
  getObject,
  isObject,
} from '../util/json';
import { parseLabelSelector, labelsOf } from '../api/selectors';
import { ResourceRegistry } from '../registry/ResourceRegistry';
import { ResourceType, apiVersionOf, storageKey } from '../registry/types';
import { kubeTime } from '../ssa/managedFields';
import { resetFieldsFilter, trackUpdate } from '../ssa/fieldManager';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  type: WatchEventType;
  /** `group/plural` of the resource. */
  key: string;
  resourceVersion: number;
  object: JsonObject;
  previous?: JsonObject;
}

/** Identifies an object for the test-facing API. */
export interface ObjectRef {
  apiVersion: string;
  /** Kind (`InferenceService`) or plural resource name (`inferenceservices`). */
  kind: string;
  namespace?: string;
  name: string;
}

export interface ListQuery {
  apiVersion: string;
  kind: string;
  namespace?: string;
  labelSelector?: string;
}

const MAX_EVENTS = 10000;

function nsName(namespace: string | undefined, name: string): string {
  return `${namespace ?? ''}/${name}`;
}

/** An object as its resource serves it (converted from another resource's storage, if so). */
export function fromStorage(rt: ResourceType, obj: JsonObject): JsonObject {
  return rt.storedAs ? rt.storedAs.fromStorage(obj) : obj;
}

export class ObjectStore {
  private readonly data = new Map<string, Map<string, JsonObject>>();
  private readonly listeners = new Set<(e: StoreEvent) => void>();
  private readonly events: StoreEvent[] = [];
  private readonly lastChange = new Map<string, number>();
  private resourceVersion = 1000;
  /** No history before this version (the store's start, or the last {@link compact}). */
  private compactedAt = this.resourceVersion;

  private constructor(
    private readonly registry: ResourceRegistry,
    private readonly clock: () => Date,
  ) {}

  static create(opts: {
    registry: ResourceRegistry;
    clock?: () => Date;
  }): ObjectStore {
    return new ObjectStore(opts.registry, opts.clock ?? (() => new Date()));
  }

  // ---- server-internal API (by resource type) ----

  /** The latest resourceVersion handed out. */
  currentResourceVersion(): number {
    return this.resourceVersion;
  }

  getRaw(
    rt: ResourceType,
    namespace: string | undefined,
    name: string,
  ): JsonObject | undefined {
    const obj = this.data
      .get(storageKey(rt))
      ?.get(nsName(rt.namespaced ? namespace : undefined, name));
    return obj ? fromStorage(rt, deepClone(obj)) : undefined;
  }

  /** Objects of a resource, in storage order (namespace, then name). */
  listRaw(rt: ResourceType, namespace?: string): JsonObject[] {
    const bucket = this.data.get(storageKey(rt));
    if (!bucket) return [];
    return [...bucket.entries()]
      .filter(
        ([key]) =>
          !namespace || !rt.namespaced || key.startsWith(`${namespace}/`),
      )
      .sort(([a], [b]) => compareStrings(a, b))
      .map(([, obj]) => fromStorage(rt, deepClone(obj)));
  }

  /** Stores an object (creating or replacing), assigning a new resourceVersion. */
  write(rt: ResourceType, obj: JsonObject): JsonObject {
    const meta = getObject(obj, 'metadata');
    const key = storageKey(rt);
    const id = nsName(
      rt.namespaced ? String(meta.namespace) : undefined,
      String(meta.name),
    );
    if (!this.data.has(key)) this.data.set(key, new Map());
    const bucket = this.data.get(key)!;
    const previous = bucket.get(id);
    this.resourceVersion++;
    meta.resourceVersion = String(this.resourceVersion);
    const stored = rt.storedAs
      ? rt.storedAs.toStorage(deepClone(obj))
      : deepClone(obj);
    bucket.set(id, stored);
    this.emit({
      type: previous ? 'MODIFIED' : 'ADDED',
      key,
      resourceVersion: this.resourceVersion,
      object: stored,
      previous,
    });
    return fromStorage(rt, deepClone(stored));
  }

  remove(
    rt: ResourceType,
    namespace: string | undefined,
    name: string,
  ): JsonObject | undefined {
    const key = storageKey(rt);
    const bucket = this.data.get(key);
    const id = nsName(rt.namespaced ? namespace : undefined, name);
    const obj = bucket?.get(id);
    if (!bucket || !obj) return undefined;
    bucket.delete(id);
    this.resourceVersion++;
    const deleted = deepClone(obj);
    getObject(deleted, 'metadata').resourceVersion = String(
      this.resourceVersion,
    );
    this.emit({
      type: 'DELETED',
      key,
      resourceVersion: this.resourceVersion,
      object: deleted,
    });
    return fromStorage(rt, deepClone(deleted));
  }

  namespaceExists(name: string): boolean {
    return this.data.get('/namespaces')?.has(nsName(undefined, name)) ?? false;
  }

  /** Deletes every namespaced object in a namespace. */
  purgeNamespace(namespace: string): void {
    for (const rt of this.registry.all()) {
      if (!rt.namespaced || rt.storageVersion !== rt.version) continue;
      for (const obj of this.listRaw(rt, namespace)) {
        const meta = obj.metadata as JsonObject;
        this.remove(rt, namespace, String(meta.name));
      }
    }
  }

  subscribe(listener: (e: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Events after `resourceVersion` (undefined when that version is too old to replay). */
  eventsSince(resourceVersion: number): StoreEvent[] | undefined {
    if (resourceVersion < this.compactedAt) return undefined;
    const first = this.events[0];
    if (first && resourceVersion < first.resourceVersion - 1) return undefined;
    return this.events.filter(e => e.resourceVersion > resourceVersion);
  }

  /**
   * Forgets the history up to the current resourceVersion, as etcd's compaction does (kube-apiserver
   * asks for one every 5 minutes, `--etcd-compaction-interval`): a watch from an older version is
   * then answered `410 Gone` ("too old resource version"), and its client must list again.
   */
  compact(): void {
    this.compactedAt = this.resourceVersion;
    this.events.length = 0;
  }

  /** The resourceVersion of the last change to a storage key's objects (undefined: none yet). */
  lastChangeOf(key: string): number | undefined {
    return this.lastChange.get(key);
  }

  private emit(e: StoreEvent) {
    this.lastChange.set(e.key, e.resourceVersion);
    this.events.push(e);
    if (this.events.length > MAX_EVENTS) this.events.shift();
    for (const l of this.listeners) l(e);
  }

  // ---- test-facing API (by apiVersion and kind) ----

  private resolve(apiVersion: string, kind: string): ResourceType {
    const rt = this.registry.find(apiVersion, kind);
    if (!rt) throw new Error(`unknown resource ${apiVersion} ${kind}`);
    return rt;
  }

  private served(rt: ResourceType, obj: JsonObject): JsonObject {
    return { ...obj, apiVersion: apiVersionOf(rt), kind: rt.kind };
  }

  /** The object, as served at `ref.apiVersion`, or undefined. */
  get(ref: ObjectRef): JsonObject | undefined {
    const rt = this.resolve(ref.apiVersion, ref.kind);
    const obj = this.getRaw(rt, ref.namespace, ref.name);
    return obj ? this.served(rt, obj) : undefined;
  }

  list(query: ListQuery): JsonObject[] {
    const rt = this.resolve(query.apiVersion, query.kind);
    const selector = parseLabelSelector(query.labelSelector);
    return this.listRaw(rt, query.namespace)
      .filter(o => selector(labelsOf(o)))
      .map(o => this.served(rt, o));
  }

  /**
   * Creates or replaces an object directly, bypassing validation, admission
   * and field management. Sets uid, creationTimestamp and generation when missing.
   */
  put(object: JsonObject): JsonObject {
    const rt = this.resolve(String(object.apiVersion), String(object.kind));
    const obj = deepClone(object);
    const meta = getObject(obj, 'metadata');
    if (typeof meta.name !== 'string' || !meta.name)
      throw new Error('store.put: metadata.name is required');
    if (rt.namespaced) {
      meta.namespace ??= 'default';
      if (!this.namespaceExists(String(meta.namespace))) {
        throw new Error(
          `store.put: namespace ${String(meta.namespace)} does not exist`,
        );
      }
    } else {
      delete meta.namespace;
    }
    const existing = this.getRaw(
      rt,
      meta.namespace as string | undefined,
      meta.name,
    );
    const existingMeta = isObject(existing?.metadata) ? existing!.metadata : {};
    meta.uid ??= existingMeta.uid ?? crypto.randomUUID();
    meta.creationTimestamp ??=
      existingMeta.creationTimestamp ?? kubeTime(this.clock());
    if (rt.hasGeneration) meta.generation ??= existingMeta.generation ?? 1;
    else delete meta.generation;
    obj.apiVersion = apiVersionOf({
      group: rt.group,
      version: rt.storageVersion,
    });
    return this.served(rt, this.write(rt, obj));
  }

  /**
   * Replaces `.status` of an object, as a controller would. With `fieldManager`,
   * the change is recorded in managedFields as an Update of the status subresource.
   */
  setStatus(
    ref: ObjectRef,
    status: JsonObject,
    opts: { fieldManager?: string } = {},
  ): JsonObject {
    const rt = this.resolve(ref.apiVersion, ref.kind);
    const current = this.getRaw(rt, ref.namespace, ref.name);
    if (!current)
      throw new Error(
        `store.setStatus: ${ref.kind} ${ref.namespace ?? ''}/${
          ref.name
        } not found`,
      );
    const next = deepClone(current);
    next.status = deepClone(status);
    if (opts.fieldManager) {
      getObject(next, 'metadata').managedFields = trackUpdate({
        live: current,
        next,
        schema: rt.schema,
        manager: opts.fieldManager,
        apiVersion: apiVersionOf(rt),
        subresource: rt.hasStatus ? 'status' : undefined,
        filter: resetFieldsFilter(
          rt.hasStatus,
          rt.hasStatus ? 'status' : undefined,
        ),
        now: kubeTime(this.clock()),
      });
    }
    return this.served(rt, this.write(rt, next));
  }

  /** Deletes an object immediately (finalizers are ignored). Returns whether it existed. */
  delete(ref: ObjectRef): boolean {
    const rt = this.resolve(ref.apiVersion, ref.kind);
    if (rt.kind === 'Namespace') this.purgeNamespace(ref.name);
    return this.remove(rt, ref.namespace, ref.name) !== undefined;
  }

  createNamespace(
    name: string,
    labels: Record<string, string> = {},
  ): JsonObject {
    return this.put({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name,
        labels: { ...labels, 'kubernetes.io/metadata.name': name },
      },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  }

  namespaces(): string[] {
    return [...(this.data.get('/namespaces')?.keys() ?? [])]
      .map(k => k.slice(1))
      .sort();
  }
}
