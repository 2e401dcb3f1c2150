/**
 * Converts a JSON object to CEL values the way kube-apiserver does for CRD
 * validation rules (k8s.io/apiserver/pkg/cel/common/values.go,
 * `UnstructuredToVal`): the schema decides the CEL type, so `integer` fields
 * are CEL `int` (bigint), `number` fields `double`, int-or-string either, and
 * object properties are reachable under their escaped names
 * (k8s.io/apiserver/pkg/cel/common/escaping.go: `namespace` → `__namespace__`,
 * `a.b` → `a__dot__b`, `a-b` → `a__dash__b`, `a/b` → `a__slash__b`, `__` →
 * `__underscores__`). Keys of maps (`additionalProperties`) are not escaped.
 *
 * Simplifications: string formats stay strings (the real server makes
 * `date-time` a timestamp and `duration` a duration; no rule here reads such
 * a field), and `set`/`map` lists compare in order.
 */
import { JsonValue, isObject } from '../util/json';
import { Schema, typeOf } from '../schema/typeNode';

const RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

const ESCAPES: Record<string, string> = {
  __: '__underscores__',
  '.': '__dot__',
  '-': '__dash__',
  '/': '__slash__',
};

/** The CEL name of property `name`, or undefined when CEL cannot reach it. */
export function escapePropertyName(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!/^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/.test(name)) return undefined;
  return name.replace(/__|[.\-/]/g, m => ESCAPES[m]);
}

function number(v: number, integer: boolean): unknown {
  return integer && Number.isInteger(v) ? BigInt(v) : v;
}

/** A value without a usable schema: JSON integers are CEL ints, as in unstructured. */
function dyn(v: JsonValue): unknown {
  if (typeof v === 'number') return number(v, true);
  if (Array.isArray(v)) return v.map(dyn);
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = dyn(x);
    return out;
  }
  return v;
}

/** `value` as a CEL input typed by `schema`. */
export function toCelValue(
  value: JsonValue,
  schema: Schema | undefined,
): unknown {
  if (value === null || !schema) return dyn(value);
  if (typeof value === 'number') return number(value, schema.type !== 'number');
  const t = typeOf(schema);
  if (Array.isArray(value))
    return value.map(item =>
      toCelValue(item, t.kind === 'list' ? t.elem : undefined),
    );
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (t.kind === 'map') out[key] = toCelValue(v, t.elem);
    else if (t.kind === 'struct') {
      const name = escapePropertyName(key);
      if (name === undefined) continue;
      const sub = t.fields[key];
      if (sub) out[name] = toCelValue(v, sub);
      else if (t.extra) out[name] = dyn(v);
    } else out[key] = dyn(v);
  }
  return out;
}
