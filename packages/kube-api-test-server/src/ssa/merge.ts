/**
 * Merging an applied configuration into a live object, and removing the
 * fields an applier gave up (structured-merge-diff's merge and prune).
 */
import { JsonObject, JsonValue, deepClone, isObject } from '../util/json';
import { Schema, childSchema, effectiveType } from '../schema/typeNode';
import { FieldSet } from './fieldSet';
import { PathElement, fieldPE, listItemElement } from './pathElement';
import { indexList, withNamedAncestors } from './walk';

type ListNode = ReturnType<typeof effectiveType> & { kind: 'list' };

/** Orders merged list items like structured-merge-diff: rhs order, lhs-only items kept in place. */
function mergeLists(l: JsonValue[], r: JsonValue[], t: ListNode): JsonValue[] {
  const li = indexList(t, l);
  const ri = indexList(t, r);
  const lOrder = [...li.keys()];
  const rOrder = [...ri.keys()];
  const shared = rOrder.filter(pe => li.has(pe));
  const out: JsonValue[] = [];
  let nextShared = shared.shift();
  const mergeItem = (pe: PathElement) => merge(li.get(pe), ri.get(pe), t.elem);
  let lI = 0;
  let rI = 0;
  while (lI < lOrder.length || rI < rOrder.length) {
    if (lI < lOrder.length && rI < rOrder.length) {
      const pe = lOrder[lI];
      if (pe === rOrder[rI]) {
        out.push(mergeItem(pe)!);
        lI++;
        rI++;
        nextShared = shared.shift();
        continue;
      }
      if (ri.has(pe) && nextShared !== undefined && nextShared !== pe) {
        lI++;
        continue;
      }
    }
    if (lI < lOrder.length && !ri.has(lOrder[lI])) {
      out.push(deepClone(li.get(lOrder[lI]))!);
      lI++;
      continue;
    }
    if (rI < rOrder.length) {
      const pe = rOrder[rI];
      out.push(mergeItem(pe)!);
      rI++;
      if (nextShared === pe) nextShared = shared.shift();
    } else {
      lI++;
    }
  }
  return out;
}

/** Merges `rhs` (the applied configuration) into `lhs`; `rhs` wins for every field it sets. */
export function merge(
  lhs: JsonValue | undefined,
  rhs: JsonValue | undefined,
  schema: Schema | undefined,
): JsonValue | undefined {
  if (rhs === undefined) return deepClone(lhs);
  if (lhs === undefined || lhs === null || rhs === null) return deepClone(rhs);
  const t = effectiveType(schema, rhs);
  if (
    (t.kind === 'struct' || t.kind === 'map') &&
    !t.atomic &&
    isObject(lhs) &&
    isObject(rhs)
  ) {
    const out: JsonObject = deepClone(lhs);
    for (const key of Object.keys(rhs)) {
      out[key] = merge(lhs[key], rhs[key], childSchema(t, key).schema)!;
    }
    return out;
  }
  if (
    t.kind === 'list' &&
    t.listType !== 'atomic' &&
    Array.isArray(lhs) &&
    Array.isArray(rhs)
  ) {
    return mergeLists(lhs, rhs, t);
  }
  return deepClone(rhs);
}

/** Removes from `value` (in place) every node `remove` selects, keeping what `keep` protects. */
function pruneNode(
  value: JsonValue,
  schema: Schema | undefined,
  remove: FieldSet,
  keep: FieldSet,
): void {
  const t = effectiveType(schema, value);
  if (isObject(value) && (t.kind === 'struct' || t.kind === 'map')) {
    for (const key of Object.keys(value)) {
      const pe = fieldPE(key);
      if (remove.has([pe]) && !keep.has([pe])) {
        delete value[key];
        continue;
      }
      const sub = remove.child(pe);
      if (sub)
        pruneNode(
          value[key],
          childSchema(t, key).schema,
          sub,
          keep.child(pe) ?? FieldSet.empty(),
        );
    }
  } else if (Array.isArray(value) && t.kind === 'list') {
    for (let i = value.length - 1; i >= 0; i--) {
      const el = listItemElement(t, value[i], i);
      if (!('pe' in el)) continue;
      if (remove.has([el.pe]) && !keep.has([el.pe])) {
        value.splice(i, 1);
        continue;
      }
      const sub = remove.child(el.pe);
      if (sub)
        pruneNode(value[i], t.elem, sub, keep.child(el.pe) ?? FieldSet.empty());
    }
  }
}

/**
 * Drops the fields the applier owned last time (`lastSet`) that no manager
 * (including the applier's new configuration) owns any more. A struct field
 * whose owned children all went away goes away with them.
 */
export function pruneApplied(
  merged: JsonObject,
  schema: Schema,
  lastSet: FieldSet | undefined,
  owned: FieldSet,
): void {
  if (!lastSet || lastSet.isEmpty()) return;
  const remove = withNamedAncestors(lastSet, schema);
  const keep = withNamedAncestors(owned, schema);
  pruneNode(merged, schema, remove, keep);
}
