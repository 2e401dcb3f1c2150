/**
 * Server-side apply and update tracking: computes the merged object and the
 * new `metadata.managedFields`, or the apply conflict error.
 */
import { StatusError, StatusCause } from '../api/errors';
import { JsonObject, deepEqual, getObject, isObject } from '../util/json';
import { Schema } from '../schema/typeNode';
import { FieldSet } from './fieldSet';
import {
  ManagerEntry,
  STRIPPED_FIELDS,
  decodeManagedFields,
  encodeManagedFields,
  managerKey,
} from './managedFields';
import { merge, pruneApplied } from './merge';
import { pathToString } from './pathElement';
import { compareValues, toFieldSet } from './walk';

/** Removes the fields a request may not own (reset fields of the endpoint). */
export type FieldFilter = (set: FieldSet) => FieldSet;

const STATUS = FieldSet.of([['f:status']]);

export function resetFieldsFilter(
  hasStatus: boolean,
  subresource: string | undefined,
): FieldFilter {
  if (subresource === 'status') return set => set.select('f:status');
  if (hasStatus) return set => set.recursiveDifference(STATUS);
  return set => set;
}

function withoutManagedFields(obj: JsonObject): JsonObject {
  const copy = JSON.parse(JSON.stringify(obj)) as JsonObject;
  if (isObject(copy.metadata)) delete copy.metadata.managedFields;
  return copy;
}

function printManager(e: ManagerEntry): string {
  let s = JSON.stringify(e.manager);
  if (e.subresource)
    s = `${s} with subresource ${JSON.stringify(e.subresource)}`;
  if (e.operation === 'Update') s = `${s} using ${e.apiVersion}`;
  return s;
}

function conflictError(
  conflicts: Array<{ entry: ManagerEntry; path: string }>,
): StatusError {
  const causes: StatusCause[] = conflicts.map(c => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${printManager(c.entry)}`,
    field: c.path,
  }));
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(
      conflicts[0].entry,
    )}: ${conflicts[0].path}`;
  } else {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts) {
      const name = printManager(c.entry);
      byManager.set(name, [...(byManager.get(name) ?? []), c.path]);
    }
    const lines: string[] = [];
    for (const name of [...byManager.keys()].sort()) {
      lines.push(`conflicts with ${name}:`);
      for (const p of byManager.get(name)!) lines.push(`- ${p}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join(
      '\n',
    )}`;
  }
  return StatusError.of({
    code: 409,
    reason: 'Conflict',
    message,
    details: { causes },
  });
}

export interface FieldManagerContext {
  schema: Schema;
  manager: string;
  /** The group/version of the request (recorded in managedFields). */
  apiVersion: string;
  subresource?: string;
  filter: FieldFilter;
  now: string;
}

export interface ApplyInput extends FieldManagerContext {
  /** The stored object, or a skeleton `{apiVersion, kind}` when creating. */
  live: JsonObject;
  patch: JsonObject;
  force: boolean;
}

/** Server-side apply. Returns the merged object with updated managedFields; throws a 409 on conflicts. */
export function applyConfig(input: ApplyInput): JsonObject {
  const live = withoutManagedFields(input.live);
  const entries = decodeManagedFields(
    isObject(input.live.metadata)
      ? input.live.metadata.managedFields
      : undefined,
  );
  const merged = merge(live, input.patch, input.schema) as JsonObject;
  const configSet = input.filter(toFieldSet(input.patch, input.schema));
  const self: ManagerEntry = {
    manager: input.manager,
    operation: 'Apply',
    apiVersion: input.apiVersion,
    subresource: input.subresource,
    set: configSet,
  };
  const key = managerKey(self);
  const last = entries.find(e => managerKey(e) === key);
  const others = entries.filter(e => managerKey(e) !== key);
  const owned = others.reduce((acc, e) => acc.union(e.set), configSet);
  pruneApplied(merged, input.schema, last?.set, owned);

  const cmp = compareValues(live, merged, input.schema);
  const changed = input.filter(cmp.modified.union(cmp.added));
  const removed = input.filter(cmp.removed);
  const conflicts: Array<{ entry: ManagerEntry; path: string }> = [];
  const taken = new Map<ManagerEntry, FieldSet>();
  for (const e of others) {
    const c = e.set.intersection(changed);
    if (c.isEmpty()) continue;
    taken.set(e, c);
    for (const p of c.paths())
      conflicts.push({ entry: e, path: pathToString(p) });
  }
  if (conflicts.length > 0 && !input.force) throw conflictError(conflicts);

  const objectChanged = !deepEqual(live, merged);
  const next: ManagerEntry[] = others.map(e => ({
    ...e,
    set: e.set.difference(taken.get(e) ?? FieldSet.empty()).difference(removed),
  }));
  next.push({
    ...self,
    set: configSet.difference(STRIPPED_FIELDS),
    time: objectChanged ? input.now : last?.time,
  });
  getObject(merged, 'metadata').managedFields = encodeManagedFields(next);
  return merged;
}

export interface UpdateInput extends FieldManagerContext {
  /** The stored object; undefined when creating. */
  live: JsonObject | undefined;
  /** The object about to be written (its managedFields are used when set). */
  next: JsonObject;
}

/** Records the fields a non-apply write changed; returns the new managedFields. */
export function trackUpdate(input: UpdateInput): JsonObject[] {
  const skeleton = {
    apiVersion: input.next.apiVersion ?? null,
    kind: input.next.kind ?? null,
  };
  const live = input.live ? withoutManagedFields(input.live) : skeleton;
  const next = withoutManagedFields(input.next);
  const requested = isObject(input.next.metadata)
    ? input.next.metadata.managedFields
    : undefined;
  let entries = decodeManagedFields(
    isObject(input.live?.metadata)
      ? input.live!.metadata.managedFields
      : undefined,
  );
  if (Array.isArray(requested)) {
    const mine = decodeManagedFields(requested);
    const current = entries;
    const same =
      mine.length === current.length &&
      mine.every(
        (e, i) =>
          managerKey(e) === managerKey(current[i]) &&
          e.set.equals(current[i].set),
      );
    if (!same) entries = requested.length === 0 ? [] : mine;
  }
  const cmp = compareValues(live, next, input.schema);
  const changed = input.filter(cmp.modified.union(cmp.added));
  const removed = input.filter(cmp.removed);
  const selfSet = changed.difference(removed).difference(STRIPPED_FIELDS);
  const self: ManagerEntry = {
    manager: input.manager,
    operation: 'Update',
    apiVersion: input.apiVersion,
    subresource: input.subresource,
    set: FieldSet.empty(),
  };
  const key = managerKey(self);
  const out = entries.map(e => ({
    ...e,
    set: e.set.difference(changed).difference(removed),
  }));
  if (!selfSet.isEmpty()) {
    const i = out.findIndex(e => managerKey(e) === key);
    const prev = i >= 0 ? out.splice(i, 1)[0].set : FieldSet.empty();
    out.push({ ...self, set: prev.union(selfSet), time: input.now });
  }
  return encodeManagedFields(out);
}
