import type { NameRule } from '../api/names';
import type { FieldError } from '../api/fieldErrors';
import type { JsonObject } from '../util/json';

export type Schema = JsonObject;

/** Kind-specific behaviour of built-in resources (defaulting and validation). */
export interface ResourceHooks {
  /** Called on create after uid/name are set. Mutates the object. */
  prepareForCreate?(obj: JsonObject): void;
  /** Called on every write (create and update) before validation. */
  normalize?(obj: JsonObject): void;
  validate?(obj: JsonObject, old: JsonObject | undefined): FieldError[];
}

/** One resource as served at one group/version. */
export interface ResourceType {
  group: string;
  version: string;
  plural: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  hasStatus: boolean;
  /** Whether metadata.generation is maintained (CRDs, workloads). */
  hasGeneration: boolean;
  storageVersion: string;
  /** Root schema (with ObjectMeta substituted) used for SSA, pruning and validation. */
  schema: Schema;
  /** True for kinds compiled into kube-apiserver; false for CRDs. */
  builtin: boolean;
  /** The verbs listed in discovery, in discovery order. */
  verbs: string[];
  nameRule: NameRule;
  /** Built-in kinds allow updates without metadata.resourceVersion; custom resources do not. */
  allowUnconditionalUpdate: boolean;
  hooks?: ResourceHooks;
  /** Field labels `?fieldSelector=` accepts besides metadata.name/namespace, each to the path it reads. */
  selectableFields?: Record<string, string>;
  /** Subresources served besides `status` (`log` for pods). */
  subresources?: string[];
  /**
   * Kept in another resource's storage, converted on the way in and out (events.k8s.io/v1 Events
   * are core/v1 Events in kube-apiserver's storage).
   */
  storedAs?: {
    group: string;
    plural: string;
    fromStorage(obj: JsonObject): JsonObject;
    toStorage(obj: JsonObject): JsonObject;
  };
}

export function apiVersionOf(rt: { group: string; version: string }): string {
  return rt.group ? `${rt.group}/${rt.version}` : rt.version;
}

export function storageKey(rt: ResourceType): string {
  if (rt.storedAs) return `${rt.storedAs.group}/${rt.storedAs.plural}`;
  return `${rt.group}/${rt.plural}`;
}
