/**
 * Schema-aware walks over values: the field set an applied configuration
 * claims, and the comparison of two versions of an object (added, modified,
 * removed fields), following structured-merge-diff's rules.
 */
import { JsonValue, deepEqual, isEmptyContainer, isObject } from '../util/json';
import {
  Schema,
  TypeNode,
  childSchema,
  effectiveType,
  typeOf,
} from '../schema/typeNode';
import { FieldSet } from './fieldSet';
import { Path, PathElement, fieldPE, listItemElement } from './pathElement';

type ListNode = TypeNode & { kind: 'list' };

/** Items of a list keyed by path element (first occurrence wins). */
export function indexList(
  t: ListNode,
  list: JsonValue[],
): Map<PathElement, JsonValue> {
  const out = new Map<PathElement, JsonValue>();
  list.forEach((item, i) => {
    const el = listItemElement(t, item, i);
    if ('pe' in el && !out.has(el.pe)) out.set(el.pe, item);
  });
  return out;
}

function isGranular(t: TypeNode, value: JsonValue | undefined): boolean {
  if (t.kind === 'struct' || t.kind === 'map')
    return !t.atomic && isObject(value);
  if (t.kind === 'list') return t.listType !== 'atomic' && Array.isArray(value);
  return false;
}

function addToSet(
  value: JsonValue,
  schema: Schema | undefined,
  path: Path,
  out: FieldSet,
): void {
  const t = effectiveType(schema, value);
  if (!isGranular(t, value) || isEmptyContainer(value)) {
    out.insert(path);
    return;
  }
  addChildren(value, t, path, out);
}

function addChildren(
  value: JsonValue,
  t: TypeNode,
  path: Path,
  out: FieldSet,
): void {
  if (isObject(value) && (t.kind === 'struct' || t.kind === 'map')) {
    for (const key of Object.keys(value)) {
      addToSet(
        value[key],
        childSchema(t, key).schema,
        [...path, fieldPE(key)],
        out,
      );
    }
  } else if (Array.isArray(value) && t.kind === 'list') {
    value.forEach((item, i) => {
      const el = listItemElement(t, item, i);
      if (!('pe' in el)) return;
      const itemPath = [...path, el.pe];
      out.insert(itemPath);
      if (t.listType === 'map' && isObject(item)) {
        addChildren(item, effectiveType(t.elem, item), itemPath, out);
      }
    });
  }
}

/** Every leaf field and list item an applied configuration mentions. */
export function toFieldSet(value: JsonValue, schema: Schema): FieldSet {
  const out = FieldSet.empty();
  addChildren(value, effectiveType(schema, value), [], out);
  return out;
}

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

function leaf(
  l: JsonValue | undefined,
  r: JsonValue | undefined,
  path: Path,
  c: Comparison,
) {
  if (path.length === 0) return;
  if (l === undefined) c.added.insert(path);
  else if (r === undefined) c.removed.insert(path);
  else if (!deepEqual(l, r)) c.modified.insert(path);
}

function compareNode(
  l: JsonValue | undefined,
  r: JsonValue | undefined,
  schema: Schema | undefined,
  path: Path,
  c: Comparison,
) {
  const t = effectiveType(schema, r !== undefined ? r : l);
  const lt = l === undefined ? t : effectiveType(schema, l);
  const sameShape = l === undefined || r === undefined || lt.kind === t.kind;
  const granular =
    sameShape &&
    isGranular(t, r ?? l) &&
    (l === undefined || l === null || isGranular(lt, l));
  if (!granular || (isEmptyContainer(l) && isEmptyContainer(r))) {
    leaf(l, r, path, c);
    return;
  }
  if (t.kind === 'list') {
    const li = Array.isArray(l)
      ? indexList(t, l)
      : new Map<PathElement, JsonValue>();
    const ri = Array.isArray(r)
      ? indexList(t, r)
      : new Map<PathElement, JsonValue>();
    for (const pe of new Set([...li.keys(), ...ri.keys()])) {
      compareNode(li.get(pe), ri.get(pe), t.elem, [...path, pe], c);
    }
  } else if (t.kind === 'struct' || t.kind === 'map') {
    const lo = isObject(l) ? l : {};
    const ro = isObject(r) ? r : {};
    for (const key of new Set([...Object.keys(lo), ...Object.keys(ro)])) {
      compareNode(
        lo[key],
        ro[key],
        childSchema(t, key).schema,
        [...path, fieldPE(key)],
        c,
      );
    }
  }
  if (path.length > 0) {
    if (l === undefined) c.added.insert(path);
    else if (r === undefined) c.removed.insert(path);
  }
}

/** What changed from `lhs` to `rhs`. */
export function compareValues(
  lhs: JsonValue | undefined,
  rhs: JsonValue | undefined,
  schema: Schema,
): Comparison {
  const c: Comparison = {
    added: FieldSet.empty(),
    modified: FieldSet.empty(),
    removed: FieldSet.empty(),
  };
  compareNode(lhs, rhs, schema, [], c);
  return c;
}

/** The schema at `path` below `schema` (undefined inside schemaless parts). */
export function schemaAt(
  schema: Schema | undefined,
  path: Path,
): Schema | undefined {
  let cur = schema;
  for (const pe of path) {
    if (!cur) return undefined;
    const t = typeOf(cur);
    if (pe.startsWith('f:')) {
      cur =
        t.kind === 'struct' || t.kind === 'map'
          ? childSchema(t, pe.slice(2)).schema
          : undefined;
    } else {
      cur = t.kind === 'list' ? t.elem : undefined;
    }
  }
  return cur;
}

/** Adds, for every path in the set, its ancestors that are declared struct fields. */
export function withNamedAncestors(set: FieldSet, schema: Schema): FieldSet {
  const out = set.clone();
  for (const path of set.paths()) {
    for (let i = 1; i < path.length; i++) {
      const pe = path[i - 1];
      if (!pe.startsWith('f:')) continue;
      const parent = schemaAt(schema, path.slice(0, i - 1));
      const pt = typeOf(parent);
      if (pt.kind === 'struct' && pt.fields[pe.slice(2)])
        out.insert(path.slice(0, i));
    }
  }
  return out;
}
