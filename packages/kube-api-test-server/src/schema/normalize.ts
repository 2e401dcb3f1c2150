/**
 * Request-body normalisation for custom resources, as kube-apiserver does it
 * while decoding: pruning of unknown fields, dropping of nulls for
 * non-nullable fields and structural defaulting.
 */
import { JsonObject, JsonValue, deepClone, isObject } from '../util/json';
import { Schema, childSchema, effectiveType, typeOf } from './typeNode';

export interface NormalizeOptions {
  prune: boolean;
  dropNulls: boolean;
  defaults: boolean;
}

function nullable(schema: Schema | undefined): boolean {
  return !schema || schema.nullable === true;
}

function walkObject(
  obj: JsonObject,
  schema: Schema | undefined,
  path: string,
  opts: NormalizeOptions,
  unknown: string[],
) {
  const t = effectiveType(schema, obj);
  if (t.kind !== 'struct' && t.kind !== 'map') return;
  for (const key of Object.keys(obj)) {
    const child = childSchema(t, key);
    const childPath = path ? `${path}.${key}` : key;
    if (!child.declared) {
      if (opts.prune) {
        unknown.push(childPath);
        delete obj[key];
      }
      continue;
    }
    const value = obj[key];
    if (
      value === null &&
      opts.dropNulls &&
      child.schema &&
      !nullable(child.schema)
    ) {
      delete obj[key];
      continue;
    }
    walk(value, child.schema, childPath, opts, unknown);
  }
  if (opts.defaults && t.kind === 'struct') {
    for (const [key, fieldSchema] of Object.entries(t.fields)) {
      if (obj[key] === undefined && fieldSchema.default !== undefined) {
        const value = deepClone(fieldSchema.default);
        obj[key] = value;
        walk(value, fieldSchema, path ? `${path}.${key}` : key, opts, unknown);
      }
    }
  }
}

function walk(
  value: JsonValue,
  schema: Schema | undefined,
  path: string,
  opts: NormalizeOptions,
  unknown: string[],
) {
  if (isObject(value)) {
    walkObject(value, schema, path, opts, unknown);
    return;
  }
  if (Array.isArray(value)) {
    const t = typeOf(schema);
    if (t.kind !== 'list') return;
    value.forEach((item, i) =>
      walk(item, t.elem, `${path}[${i}]`, opts, unknown),
    );
  }
}

/**
 * Normalises `obj` in place; returns the paths of pruned unknown fields
 * (`spec.foo`), for `fieldValidation` warnings and strict errors.
 */
export function normalizeObject(
  obj: JsonObject,
  schema: Schema,
  opts: NormalizeOptions,
): string[] {
  const unknown: string[] = [];
  walk(obj, schema, '', opts, unknown);
  return unknown;
}
