/**
 * A structured-merge-diff style view of a structural schema: what kind of
 * node a schema describes (struct, map, list, scalar) and how its children
 * are merged (atomic or granular, list keys).
 */
import { JsonObject, JsonValue, isObject } from '../util/json';

export type Schema = JsonObject;

export type ListType = 'atomic' | 'set' | 'map';

export type TypeNode =
  | {
      kind: 'struct';
      fields: Record<string, Schema>;
      extra: boolean;
      atomic: boolean;
    }
  | { kind: 'map'; elem: Schema | undefined; atomic: boolean }
  | {
      kind: 'list';
      elem: Schema | undefined;
      listType: ListType;
      keys: string[];
    }
  | { kind: 'scalar'; scalar: 'string' | 'numeric' | 'boolean' }
  /** int-or-string and other untyped atoms: any value, owned as a whole. */
  | { kind: 'any' }
  /** x-kubernetes-preserve-unknown-fields without structure: shape follows the value. */
  | { kind: 'deduced' };

const cache = new WeakMap<Schema, TypeNode>();

const EMBEDDED_FIELDS: Record<string, Schema> = {
  apiVersion: { type: 'string' },
  kind: { type: 'string' },
};

function computeType(s: Schema): TypeNode {
  if (s['x-kubernetes-int-or-string'] === true) return { kind: 'any' };
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  switch (s.type) {
    case 'object': {
      const atomic = s['x-kubernetes-map-type'] === 'atomic';
      if (isObject(s.additionalProperties)) {
        return { kind: 'map', elem: s.additionalProperties, atomic };
      }
      const fields: Record<string, Schema> = {};
      if (s['x-kubernetes-embedded-resource'] === true)
        Object.assign(fields, EMBEDDED_FIELDS);
      if (isObject(s.properties)) {
        for (const [k, v] of Object.entries(s.properties))
          if (isObject(v)) fields[k] = v;
      }
      if (preserve && Object.keys(fields).length === 0)
        return { kind: 'map', elem: undefined, atomic };
      return { kind: 'struct', fields, extra: preserve, atomic };
    }
    case 'array': {
      const lt = s['x-kubernetes-list-type'];
      const listType: ListType = lt === 'set' || lt === 'map' ? lt : 'atomic';
      const keys = Array.isArray(s['x-kubernetes-list-map-keys'])
        ? s['x-kubernetes-list-map-keys'].map(String)
        : [];
      return {
        kind: 'list',
        elem: isObject(s.items) ? s.items : undefined,
        listType,
        keys,
      };
    }
    case 'string':
      return { kind: 'scalar', scalar: 'string' };
    case 'integer':
    case 'number':
      return { kind: 'scalar', scalar: 'numeric' };
    case 'boolean':
      return { kind: 'scalar', scalar: 'boolean' };
    default:
      return preserve ? { kind: 'deduced' } : { kind: 'any' };
  }
}

export function typeOf(schema: Schema | undefined): TypeNode {
  if (!schema) return { kind: 'deduced' };
  let t = cache.get(schema);
  if (!t) {
    t = computeType(schema);
    cache.set(schema, t);
  }
  return t;
}

/** Resolves a deduced node against a concrete value: objects are granular maps, everything else atomic. */
export function effectiveType(
  schema: Schema | undefined,
  value: JsonValue | undefined,
): TypeNode {
  const t = typeOf(schema);
  if (t.kind !== 'deduced') return t;
  if (isObject(value)) return { kind: 'map', elem: undefined, atomic: false };
  return { kind: 'any' };
}

export interface ChildSchema {
  declared: boolean;
  schema: Schema | undefined;
}

/** The schema of field `key` of a struct or map node. */
export function childSchema(t: TypeNode, key: string): ChildSchema {
  if (t.kind === 'struct') {
    const f = t.fields[key];
    if (f) return { declared: true, schema: f };
    return { declared: t.extra, schema: undefined };
  }
  if (t.kind === 'map') return { declared: true, schema: t.elem };
  return { declared: true, schema: undefined };
}

/** True when the node is owned as one value by field managers. */
export function isAtomic(t: TypeNode): boolean {
  if (t.kind === 'scalar' || t.kind === 'any' || t.kind === 'deduced')
    return true;
  if (t.kind === 'list') return t.listType === 'atomic';
  return t.atomic;
}
