/**
 * OpenAPI schema validation of whole objects with ajv, reporting errors the
 * way kube-apiserver's CRD validation does (field paths and messages).
 */
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { FieldError, fieldErrors } from '../api/fieldErrors';
import { JsonObject, JsonValue, isObject, openApiType } from '../util/json';
import { ENFORCED_FORMATS, prunedJsonSchema } from './jsonSchema';
import { Schema, typeOf } from './typeNode';
import { listItemElement } from '../ssa/pathElement';

const ajv = new Ajv({
  strict: false,
  allErrors: true,
  logger: false,
  validateFormats: true,
});
addFormats(
  ajv,
  ENFORCED_FORMATS as Parameters<typeof addFormats>[1] & string[],
);

const compiled = new Map<string, ValidateFunction>();
const MAX_COMPILED = 1000;

function compile(schema: JsonObject): ValidateFunction {
  const key = JSON.stringify(schema);
  let fn = compiled.get(key);
  if (!fn) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    fn = ajv.compile(schema);
    compiled.set(key, fn);
  }
  return fn;
}

/** `/spec/containers/0/name` -> `spec.containers[0].name` */
function fieldPath(instancePath: string): string {
  let out = '';
  for (const raw of instancePath.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else out += out ? `.${seg}` : seg;
  }
  return out;
}

function valueAt(root: JsonValue, instancePath: string): JsonValue {
  let cur: JsonValue | undefined = root;
  for (const raw of instancePath.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) cur = cur[Number(seg)];
    else if (isObject(cur)) cur = cur[seg];
    else cur = undefined;
  }
  return cur === undefined ? null : cur;
}

function inComposite(e: ErrorObject): boolean {
  const segments = e.schemaPath.split('/');
  const last = segments.length - 1;
  return segments.some(
    (s, i) => i < last && (s === 'anyOf' || s === 'oneOf' || s === 'not'),
  );
}

function mapError(e: ErrorObject, root: JsonValue): FieldError | undefined {
  const path = fieldPath(e.instancePath);
  const value = valueAt(root, e.instancePath);
  const p = e.params as Record<string, unknown>;
  const shown = path || '<nil>';
  switch (e.keyword) {
    case 'required': {
      const child = String(p.missingProperty);
      return fieldErrors.required(path ? `${path}.${child}` : child);
    }
    case 'type': {
      const expected = String(p.type).split(',')[0];
      const actual = openApiType(value);
      return fieldErrors.typeInvalid(
        shown,
        actual,
        `${shown} in body must be of type ${expected}: "${actual}"`,
      );
    }
    case 'enum':
      return fieldErrors.notSupported(
        shown,
        value,
        (p.allowedValues as JsonValue[]).map(v =>
          typeof v === 'string' ? v : JSON.stringify(v),
        ),
      );
    case 'pattern':
      return fieldErrors.invalid(
        shown,
        value,
        `${shown} in body should match '${String(p.pattern)}'`,
      );
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum': {
      const rel = {
        minimum: 'greater than or equal to',
        exclusiveMinimum: 'greater than',
        maximum: 'less than or equal to',
        exclusiveMaximum: 'less than',
      }[e.keyword];
      return fieldErrors.invalid(
        shown,
        value,
        `${shown} in body should be ${rel} ${String(p.limit)}`,
      );
    }
    case 'minLength':
      return fieldErrors.invalid(
        shown,
        value,
        `${shown} in body should be at least ${String(p.limit)} chars long`,
      );
    case 'maxLength':
      return fieldErrors.tooLong(shown, Number(p.limit));
    case 'minItems':
      return fieldErrors.invalid(
        shown,
        Array.isArray(value) ? value.length : value,
        `${shown} in body should have at least ${String(p.limit)} items`,
      );
    case 'maxItems':
      return fieldErrors.tooMany(
        shown,
        Array.isArray(value) ? value.length : 0,
        Number(p.limit),
      );
    case 'minProperties':
      return fieldErrors.invalid(
        shown,
        value,
        `${shown} in body should have at least ${String(p.limit)} properties`,
      );
    case 'maxProperties':
      return fieldErrors.tooMany(
        shown,
        isObject(value) ? Object.keys(value).length : 0,
        Number(p.limit),
      );
    case 'uniqueItems':
      return fieldErrors.invalid(
        shown,
        value,
        `${shown} in body shouldn't contain duplicates`,
      );
    case 'multipleOf':
      return fieldErrors.invalid(
        shown,
        value,
        `${shown} in body should be a multiple of ${String(p.multipleOf)}`,
      );
    case 'format':
      return fieldErrors.typeInvalid(
        shown,
        value,
        `${shown} in body must be of type ${String(p.format)}: ${JSON.stringify(
          value,
        )}`,
      );
    case 'anyOf':
      return fieldErrors.invalid(
        shown,
        value,
        `"${shown}" must validate at least one schema (anyOf)`,
      );
    case 'oneOf':
      return fieldErrors.invalid(
        shown,
        value,
        `"${shown}" must validate one and only one schema (oneOf)`,
      );
    case 'not':
      return fieldErrors.invalid(
        shown,
        value,
        `"${shown}" must not validate the schema (not)`,
      );
    case 'additionalProperties':
      return fieldErrors.forbidden(
        path
          ? `${path}.${String(p.additionalProperty)}`
          : String(p.additionalProperty),
        'field not declared in schema',
      );
    default:
      return fieldErrors.invalid(shown, value, e.message ?? e.keyword);
  }
}

/** Duplicate items in `x-kubernetes-list-type: set|map` lists. */
function listInvariantErrors(
  value: JsonValue,
  schema: Schema | undefined,
  path: string,
  out: FieldError[],
) {
  const t = typeOf(schema);
  if (isObject(value) && (t.kind === 'struct' || t.kind === 'map')) {
    for (const [k, v] of Object.entries(value)) {
      const sub = t.kind === 'struct' ? t.fields[k] : t.elem;
      if (sub) listInvariantErrors(v, sub, path ? `${path}.${k}` : k, out);
    }
  } else if (Array.isArray(value) && t.kind === 'list') {
    const seen = new Set<string>();
    value.forEach((item, i) => {
      const el = listItemElement(t, item, i);
      if (t.listType !== 'atomic' && 'pe' in el) {
        if (seen.has(el.pe)) {
          const shown: JsonValue =
            t.listType === 'map' && isObject(item)
              ? Object.fromEntries(t.keys.map(k => [k, item[k] ?? null]))
              : item;
          out.push({ type: 'Duplicate', field: `${path}[${i}]`, value: shown });
        }
        seen.add(el.pe);
      }
      listInvariantErrors(item, t.elem, `${path}[${i}]`, out);
    });
  }
}

/** Validates a whole object against its root schema (metadata excluded). */
export function validateAgainstSchema(
  obj: JsonObject,
  schema: Schema,
): FieldError[] {
  const fn = compile(prunedJsonSchema(schema, obj, true));
  const errs: FieldError[] = [];
  if (!fn(obj)) {
    for (const e of fn.errors ?? []) {
      if (inComposite(e)) continue;
      const mapped = mapError(e, obj);
      if (mapped) errs.push(mapped);
    }
  }
  const { metadata: _metadata, ...rest } = obj;
  listInvariantErrors(rest, schema, '', errs);
  return errs;
}

export function isBlockingError(e: FieldError): boolean {
  return e.type === 'TypeInvalid' || e.type === 'NotSupported';
}
