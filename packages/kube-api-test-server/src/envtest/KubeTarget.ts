/**
 * What a test reaches a Kubernetes API through, whichever serves it: the test double
 * (`KubeApiTestServer`) or a real kube-apiserver (`RealKubeTarget`, chosen with
 * `MODEL_MANAGER_TEST_KUBE=real`).
 */
import type { FaultInjector } from '../server/faults';
import type { ObjectRef, ObjectStore } from '../store/ObjectStore';
import type { RequestRecord } from '../types';
import type { JsonObject } from '../util/json';

/** Objects read and written as an administrator, the same way on both targets. */
export interface KubeObjects {
  /** The object, or undefined when it does not exist. */
  get(ref: ObjectRef): Promise<JsonObject | undefined>;
  /** Creates the object, or replaces it when it exists. */
  put(object: JsonObject): Promise<JsonObject>;
  /** Replaces `.status` (an Update of the status subresource by `fieldManager`). */
  setStatus(
    ref: ObjectRef,
    status: JsonObject,
    opts?: { fieldManager?: string },
  ): Promise<JsonObject>;
  /** Deletes the object now (finalizers are removed: no controller would). Whether it existed. */
  delete(ref: ObjectRef): Promise<boolean>;
}

export interface KubeTarget {
  readonly kind: 'double' | 'real';
  readonly url: string;
  readonly objects: KubeObjects;
  /** The double's in-memory store; the real target throws (use `objects`). */
  readonly store: ObjectStore;
  readonly faults: FaultInjector;
  readonly requests: RequestRecord[];
  readonly requestCount: number;
  readonly connectionCount: number;
  resetRequests(): void;
  stop(): Promise<void>;
}
