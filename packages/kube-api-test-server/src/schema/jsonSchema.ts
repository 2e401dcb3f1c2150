/**
 * Turns a structural (OpenAPI v3) schema into a JSON Schema for ajv, pruned to
 * the parts an instance actually uses. The KServe schemas are megabytes;
 * compiling them whole takes seconds, compiling the pruned part milliseconds.
 */
import { JsonObject, JsonValue, isObject } from '../util/json';
import { Schema } from './typeNode';

/** Formats kube-apiserver validates and this server enforces; others are ignored. */
export const ENFORCED_FORMATS = [
  'date-time',
  'date',
  'uuid',
  'byte',
  'ipv4',
  'ipv6',
];

const COPIED = [
  'enum',
  'pattern',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'multipleOf',
  'minProperties',
  'maxProperties',
  'required',
];

function copyKeywords(s: Schema, out: JsonObject) {
  for (const key of COPIED) if (s[key] !== undefined) out[key] = s[key];
  if (s.exclusiveMinimum === true && typeof s.minimum === 'number') {
    delete out.minimum;
    out.exclusiveMinimum = s.minimum;
  }
  if (s.exclusiveMaximum === true && typeof s.maximum === 'number') {
    delete out.maximum;
    out.exclusiveMaximum = s.maximum;
  }
  if (typeof s.format === 'string' && ENFORCED_FORMATS.includes(s.format))
    out.format = s.format;
  const nullable = s.nullable === true;
  if (s['x-kubernetes-int-or-string'] === true) {
    if (!s.anyOf)
      out.type = nullable
        ? ['integer', 'string', 'null']
        : ['integer', 'string'];
  } else if (typeof s.type === 'string') {
    out.type = nullable ? [s.type, 'null'] : s.type;
  }
  if (nullable && Array.isArray(out.enum) && !out.enum.includes(null))
    out.enum = [...out.enum, null];
}

/** Converts `s` for validating `value`; `root` marks the object root, whose metadata is validated elsewhere. */
export function prunedJsonSchema(
  s: Schema,
  value: JsonValue | undefined,
  root = false,
): JsonObject {
  const out: JsonObject = {};
  copyKeywords(s, out);
  for (const key of ['allOf', 'anyOf', 'oneOf']) {
    const list = s[key];
    if (Array.isArray(list))
      out[key] = list.filter(isObject).map(sub => prunedJsonSchema(sub, value));
  }
  if (isObject(s.not)) out.not = prunedJsonSchema(s.not, value);

  if (isObject(value)) {
    const props: JsonObject = {};
    const declared = isObject(s.properties) ? s.properties : undefined;
    const additional = isObject(s.additionalProperties)
      ? s.additionalProperties
      : undefined;
    for (const key of Object.keys(value)) {
      if (root && key === 'metadata') {
        props.metadata = { type: 'object' };
        continue;
      }
      const sub =
        declared && isObject(declared[key]) ? declared[key] : additional;
      if (sub) props[key] = prunedJsonSchema(sub, value[key]);
    }
    if (Object.keys(props).length > 0) out.properties = props;
    const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
    const embedded = s['x-kubernetes-embedded-resource'] === true;
    if (s.type === 'object' && declared && !preserve && !additional) {
      if (embedded) {
        const p = (out.properties ?? {}) as JsonObject;
        for (const k of ['apiVersion', 'kind', 'metadata'])
          if (!p[k] && k in value) p[k] = {};
        out.properties = p;
      }
      out.additionalProperties = false;
    }
  }
  if (Array.isArray(value) && value.length > 0 && isObject(s.items)) {
    const items = s.items;
    out.items = value.map(item => prunedJsonSchema(items, item));
  }
  return out;
}
