/** `metadata.managedFields` entries: decoding, encoding, identity and ordering. */
import { JsonObject, JsonValue, compareStrings, isObject } from '../util/json';
import { FieldSet } from './fieldSet';

export type Operation = 'Apply' | 'Update';

export interface ManagerEntry {
  manager: string;
  operation: Operation;
  apiVersion: string;
  time?: string;
  subresource?: string;
  set: FieldSet;
}

/** Managers are identified without time (and, for appliers, without apiVersion). */
export function managerKey(
  e: Pick<ManagerEntry, 'manager' | 'operation' | 'apiVersion' | 'subresource'>,
): string {
  const version = e.operation === 'Apply' ? '' : e.apiVersion;
  return JSON.stringify([e.manager, e.operation, version, e.subresource ?? '']);
}

export function decodeManagedFields(
  value: JsonValue | undefined,
): ManagerEntry[] {
  if (!Array.isArray(value)) return [];
  const out: ManagerEntry[] = [];
  for (const raw of value) {
    if (!isObject(raw)) continue;
    const operation = raw.operation === 'Apply' ? 'Apply' : 'Update';
    out.push({
      manager: typeof raw.manager === 'string' ? raw.manager : '',
      operation,
      apiVersion: typeof raw.apiVersion === 'string' ? raw.apiVersion : '',
      time: typeof raw.time === 'string' ? raw.time : undefined,
      subresource:
        typeof raw.subresource === 'string' && raw.subresource
          ? raw.subresource
          : undefined,
      set: FieldSet.fromFieldsV1(raw.fieldsV1),
    });
  }
  return out;
}

function seconds(time: string | undefined): number {
  return time ? Math.floor(Date.parse(time) / 1000) : 0;
}

function compareEntries(p: ManagerEntry, q: ManagerEntry): number {
  if (p.operation !== q.operation) return p.operation < q.operation ? -1 : 1;
  const ps = seconds(p.time);
  const qs = seconds(q.time);
  if (ps !== qs) return ps - qs;
  if (p.manager !== q.manager) return p.manager < q.manager ? -1 : 1;
  if (p.apiVersion !== q.apiVersion)
    return p.apiVersion < q.apiVersion ? -1 : 1;
  return compareStrings(p.subresource ?? '', q.subresource ?? '');
}

/** Encodes entries in kube-apiserver's order (operation, time, manager, apiVersion, subresource). */
export function encodeManagedFields(entries: ManagerEntry[]): JsonObject[] {
  return [...entries]
    .filter(e => !e.set.isEmpty())
    .sort(compareEntries)
    .map(e => {
      const out: JsonObject = {
        apiVersion: e.apiVersion,
        fieldsType: 'FieldsV1',
        fieldsV1: e.set.toFieldsV1(),
        manager: e.manager,
        operation: e.operation,
      };
      if (e.subresource) out.subresource = e.subresource;
      if (e.time) out.time = e.time;
      return out;
    });
}

/** Fields kube-apiserver never records as owned. */
export const STRIPPED_FIELDS = FieldSet.of([
  ['f:apiVersion'],
  ['f:kind'],
  ['f:metadata'],
  ['f:metadata', 'f:name'],
  ['f:metadata', 'f:namespace'],
  ['f:metadata', 'f:creationTimestamp'],
  ['f:metadata', 'f:selfLink'],
  ['f:metadata', 'f:uid'],
  ['f:metadata', 'f:clusterName'],
  ['f:metadata', 'f:generation'],
  ['f:metadata', 'f:managedFields'],
  ['f:metadata', 'f:resourceVersion'],
]);

/** RFC 3339 with second precision, as Kubernetes timestamps are serialised. */
export function kubeTime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
