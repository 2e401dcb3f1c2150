/**
 * Path elements in the FieldsV1 key syntax: `f:<field>`, `k:<json keys>`,
 * `v:<json value>` and `i:<index>`.
 */
import { JsonObject, JsonValue, compareStrings, isObject } from '../util/json';
import { Schema, TypeNode } from '../schema/typeNode';

export type PathElement = string;
export type Path = PathElement[];

export const fieldPE = (name: string): PathElement => `f:${name}`;
export const indexPE = (i: number): PathElement => `i:${i}`;
export const valuePE = (v: JsonValue): PathElement => `v:${JSON.stringify(v)}`;

export function keyPE(keys: Array<[string, JsonValue]>): PathElement {
  const sorted = [...keys].sort(([a], [b]) => compareStrings(a, b));
  const obj: JsonObject = {};
  for (const [k, v] of sorted) obj[k] = v;
  return `k:${JSON.stringify(obj)}`;
}

function scalarString(v: JsonValue): string {
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

/** Human-readable form used in conflicts and errors: `.spec`, `[name="x"]`, `[="x"]`, `[0]`. */
export function peToString(pe: PathElement): string {
  const body = pe.slice(2);
  switch (pe[0]) {
    case 'f':
      return `.${body}`;
    case 'k': {
      const obj = JSON.parse(body) as JsonObject;
      return `[${Object.entries(obj)
        .map(([k, v]) => `${k}=${scalarString(v)}`)
        .join(',')}]`;
    }
    case 'v':
      return `[=${scalarString(JSON.parse(body) as JsonValue)}]`;
    default:
      return `[${body}]`;
  }
}

export function pathToString(path: Path): string {
  return path.map(peToString).join('');
}

const TYPE_ORDER: Record<string, number> = { f: 0, k: 1, v: 2, i: 3 };

export function comparePE(a: PathElement, b: PathElement): number {
  const ta = TYPE_ORDER[a[0]] ?? 9;
  const tb = TYPE_ORDER[b[0]] ?? 9;
  if (ta !== tb) return ta - tb;
  if (a[0] === 'i') return Number(a.slice(2)) - Number(b.slice(2));
  return compareStrings(a, b);
}

export type ItemElement = { pe: PathElement } | { error: string };

function keyDefault(
  itemSchema: Schema | undefined,
  key: string,
): JsonValue | undefined {
  const props =
    itemSchema && isObject(itemSchema.properties)
      ? itemSchema.properties
      : undefined;
  const field = props && isObject(props[key]) ? props[key] : undefined;
  return field ? field.default : undefined;
}

/** The path element of one list item, or the structured-merge-diff error for it. */
export function listItemElement(
  t: TypeNode & { kind: 'list' },
  item: JsonValue,
  index: number,
): ItemElement {
  if (t.listType === 'atomic') return { pe: indexPE(index) };
  if (t.listType === 'map' && t.keys.length > 0) {
    if (item === null)
      return {
        error: 'associative list with keys may not have a null element',
      };
    if (!isObject(item))
      return {
        error: 'associative list with keys may not have non-map elements',
      };
    const keys: Array<[string, JsonValue]> = [];
    for (const key of t.keys) {
      const v = item[key] ?? keyDefault(t.elem, key);
      if (v === undefined) {
        return {
          error: `associative list with keys has an element that omits key field "${key}" (and doesn't have default value)`,
        };
      }
      keys.push([key, v]);
    }
    return { pe: keyPE(keys) };
  }
  if (isObject(item))
    return {
      error: "associative list without keys has an element that's a map type",
    };
  if (Array.isArray(item))
    return { error: 'not supported: associative list with lists as elements' };
  if (item === null)
    return {
      error:
        "associative list without keys has an element that's an explicit null",
    };
  return { pe: valuePE(item) };
}
