/**
 * Evaluates `x-kubernetes-validations` rules of a structural schema against an
 * object, reporting violations like kube-apiserver. Rules outside the
 * supported CEL subset are skipped (never reported).
 */
import { FieldError, fieldErrors } from '../api/fieldErrors';
import { JsonObject, JsonValue, isObject } from '../util/json';
import { Schema, typeOf } from '../schema/typeNode';
import { listItemElement } from '../ssa/pathElement';
import { CelRuntimeError, CelUnsupported } from './ast';
import { evaluate, referencesIdent } from './evaluate';
import { parseCel } from './parser';

interface Rule {
  rule: string;
  message?: string;
  messageExpression?: string;
  fieldPath?: string;
  reason?: string;
}

function rulesOf(schema: Schema): Rule[] {
  const list = schema['x-kubernetes-validations'];
  if (!Array.isArray(list)) return [];
  return list
    .filter(isObject)
    .filter(
      (r): r is JsonObject & Rule => typeof r.rule === 'string',
    ) as unknown as Rule[];
}

function ruleErrorString(rule: Rule): string {
  return (rule.message && rule.message.trim()) || rule.rule.trim();
}

function ruleMessageOrDefault(rule: Rule): string {
  return rule.message
    ? rule.message.trim()
    : `failed rule: ${ruleErrorString(rule)}`;
}

function childPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function withFieldPath(path: string, fieldPath: string | undefined): string {
  if (!fieldPath) return path || '<nil>';
  const rel = fieldPath.replace(/\['([^']*)'\]/g, '[$1]');
  if (!path) return rel.replace(/^\./, '');
  return rel.startsWith('.') || rel.startsWith('[')
    ? `${path}${rel}`
    : `${path}.${rel}`;
}

function errorForReason(
  field: string,
  type: string,
  detail: string,
  reason?: string,
): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return fieldErrors.forbidden(field, detail);
    case 'FieldValueRequired':
      return fieldErrors.required(field, detail);
    case 'FieldValueDuplicate':
      return { type: 'Duplicate', field, value: type };
    default:
      return fieldErrors.invalid(field, type, detail);
  }
}

function evalRule(
  rule: Rule,
  value: JsonValue,
  old: JsonValue | undefined,
  schema: Schema,
  path: string,
  errs: FieldError[],
) {
  let expr;
  try {
    expr = parseCel(rule.rule);
  } catch {
    return;
  }
  if (referencesIdent(expr, 'oldSelf') && old === undefined) return;
  const env = { self: value, oldSelf: old };
  const type = typeof schema.type === 'string' ? schema.type : '';
  const shownPath = path || '<nil>';
  let result: unknown;
  try {
    result = evaluate(expr, env);
  } catch (e) {
    if (e instanceof CelRuntimeError) {
      const detail =
        e.message === 'no such overload'
          ? `'${
              e.message
            }': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(
              rule,
            )}`
          : `${e.message} evaluating rule: ${ruleErrorString(rule)}`;
      errs.push(fieldErrors.invalid(shownPath, type, detail));
    }
    if (e instanceof CelUnsupported || e instanceof CelRuntimeError) return;
    throw e;
  }
  if (result === true) return;
  let detail = ruleMessageOrDefault(rule);
  if (rule.messageExpression) {
    try {
      const m = evaluate(parseCel(rule.messageExpression), env);
      if (typeof m === 'string' && m.trim()) detail = m;
    } catch {
      // fall back to message
    }
  }
  errs.push(
    errorForReason(
      withFieldPath(path, rule.fieldPath),
      type,
      detail,
      rule.reason,
    ),
  );
}

function walk(
  value: JsonValue | undefined,
  old: JsonValue | undefined,
  schema: Schema | undefined,
  path: string,
  errs: FieldError[],
) {
  if (value === undefined || value === null || !schema) return;
  for (const rule of rulesOf(schema))
    evalRule(rule, value, old, schema, path, errs);
  const t = typeOf(schema);
  if (isObject(value) && (t.kind === 'struct' || t.kind === 'map')) {
    const oldObj = isObject(old) ? old : undefined;
    for (const key of Object.keys(value).sort()) {
      if (t.kind === 'struct') {
        const sub = t.fields[key];
        if (sub)
          walk(value[key], oldObj?.[key], sub, childPath(path, key), errs);
      } else {
        walk(value[key], oldObj?.[key], t.elem, `${path}[${key}]`, errs);
      }
    }
  } else if (Array.isArray(value) && t.kind === 'list') {
    const oldItems = new Map<string, JsonValue>();
    if (Array.isArray(old) && t.listType !== 'atomic') {
      old.forEach((item, i) => {
        const el = listItemElement(t, item, i);
        if ('pe' in el) oldItems.set(el.pe, item);
      });
    }
    value.forEach((item, i) => {
      const el = listItemElement(t, item, i);
      const oldItem =
        'pe' in el && t.listType !== 'atomic' ? oldItems.get(el.pe) : undefined;
      walk(item, oldItem, t.elem, `${path}[${i}]`, errs);
    });
  }
}

/** CEL violations of `obj` (and transition rules against `old`, when given). */
export function celErrors(
  obj: JsonObject,
  schema: Schema,
  old?: JsonObject,
): FieldError[] {
  const errs: FieldError[] = [];
  const { metadata: _m, ...rest } = obj;
  const oldRest = old ? (({ metadata: _om, ...r }) => r)(old) : undefined;
  walk(rest, oldRest, schema, '', errs);
  return errs;
}

const ruleCache = new WeakMap<Schema, boolean>();

function containsRules(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(containsRules);
  if (!isObject(value)) return false;
  if (
    Array.isArray(value['x-kubernetes-validations']) &&
    value['x-kubernetes-validations'].length > 0
  )
    return true;
  return Object.values(value).some(containsRules);
}

/** Whether a schema declares any `x-kubernetes-validations` rule. */
export function hasCelRules(schema: Schema): boolean {
  let has = ruleCache.get(schema);
  if (has === undefined) {
    has = containsRules(schema);
    ruleCache.set(schema, has);
  }
  return has;
}
