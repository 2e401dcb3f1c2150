/**
 * Evaluates `x-kubernetes-validations` rules of a structural schema against an
 * object with `@bufbuild/cel`, reporting violations like kube-apiserver
 * (kubernetes/kubernetes staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go).
 * A rule the test double cannot compile is never skipped: evaluating it throws
 * {@link CelRuleUnsupportedError}, which the server answers with a 500.
 */
import { isCelError } from '@bufbuild/cel';
import { FieldError, fieldErrors } from '../api/fieldErrors';
import { JsonObject, JsonValue, isObject } from '../util/json';
import { Schema, typeOf } from '../schema/typeNode';
import { listItemElement } from '../ssa/pathElement';
import { CelBindings, compileRule } from './compileRule';
import { toCelValue } from './values';

export interface Rule {
  rule: string;
  message?: string;
  messageExpression?: string;
  fieldPath?: string;
  reason?: string;
  optionalOldSelf?: boolean;
}

/** Why the double cannot run a rule as declared, beyond its expression compiling. */
function unsupportedOption(rule: Rule): string | undefined {
  // With optionalOldSelf kube-apiserver also runs the rule on create, with
  // oldSelf an optional none; the optional library is not registered here.
  return rule.optionalOldSelf === true
    ? 'optionalOldSelf is not supported'
    : undefined;
}

/** A rule (or messageExpression) the test double cannot evaluate. */
export class CelRuleUnsupportedError extends Error {
  constructor(expression: string, path: string, reason: string) {
    super(
      `kube-api-test-server cannot evaluate the x-kubernetes-validations expression ${JSON.stringify(
        expression,
      )} at ${
        path || '<root>'
      }: ${reason}. This is a gap in the test double (see src/cel/environment.ts), not an invalid object.`,
    );
    this.name = 'CelRuleUnsupportedError';
  }
}

export function rulesOf(schema: Schema): Rule[] {
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

/**
 * cel-go's wording of the runtime errors kube-apiserver shows
 * (cel-go common/types/map.go "no such key: %v"; every operator/function
 * mismatch is "no such overload"). Other errors keep `@bufbuild/cel`'s wording.
 */
function celGoMessage(message: string): string {
  const noField = /^field not found: (.*)$/.exec(message);
  if (noField) return `no such key: ${noField[1]}`;
  if (/^found no matching overload/.test(message)) return 'no such overload';
  return message;
}

function evaluate(
  expression: string,
  bindings: CelBindings,
  path: string,
): { value: unknown } | { error: string } {
  const compiled = compileRule(expression);
  if (!compiled.ok)
    throw new CelRuleUnsupportedError(expression, path, compiled.error);
  const result = compiled.run(bindings);
  if (isCelError(result)) return { error: celGoMessage(result.message) };
  return { value: result };
}

function evalRule(
  rule: Rule,
  value: JsonValue,
  old: JsonValue | undefined,
  schema: Schema,
  path: string,
  errs: FieldError[],
) {
  const option = unsupportedOption(rule);
  if (option) throw new CelRuleUnsupportedError(rule.rule, path, option);
  const compiled = compileRule(rule.rule);
  // Transition rules (those naming oldSelf) run only on update, when an old value exists.
  if (compiled.ok && compiled.usesOldSelf && old === undefined) return;
  const bindings: CelBindings = {
    self: toCelValue(value, schema),
    ...(old === undefined ? {} : { oldSelf: toCelValue(old, schema) }),
  };
  const type = typeof schema.type === 'string' ? schema.type : '';
  const shownPath = path || '<nil>';
  const result = evaluate(rule.rule, bindings, path);
  if ('error' in result) {
    const detail =
      result.error === 'no such overload'
        ? `'${
            result.error
          }': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(
            rule,
          )}`
        : `${result.error} evaluating rule: ${ruleErrorString(rule)}`;
    errs.push(fieldErrors.invalid(shownPath, type, detail));
    return;
  }
  if (result.value === true) return;
  let detail = ruleMessageOrDefault(rule);
  if (rule.messageExpression) {
    const m = evaluate(rule.messageExpression, bindings, path);
    if ('value' in m && typeof m.value === 'string' && m.value.trim())
      detail = m.value;
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

function childPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
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

export interface CelRuleProblem {
  /** The schema path of the rule, e.g. `spec.scaling` (`<root>` for the root). */
  path: string;
  expression: string;
  error: string;
}

function schemaChildren(schema: Schema): Array<[Schema, string]> {
  const t = typeOf(schema);
  if (t.kind === 'struct')
    return Object.entries(t.fields).map(([k, s]) => [s, `.${k}`]);
  if ((t.kind === 'map' || t.kind === 'list') && t.elem)
    return [[t.elem, '[*]']];
  return [];
}

/** Problems below `schema`, with paths relative to it; CRD sub-schemas are shared, so cached. */
const problemCache = new WeakMap<Schema, CelRuleProblem[]>();

function relativeProblems(schema: Schema): CelRuleProblem[] {
  const cached = problemCache.get(schema);
  if (cached) return cached;
  const problems: CelRuleProblem[] = [];
  for (const rule of rulesOf(schema)) {
    const option = unsupportedOption(rule);
    if (option)
      problems.push({ path: '', expression: rule.rule, error: option });
    for (const expression of [rule.rule, rule.messageExpression]) {
      if (expression === undefined) continue;
      const compiled = compileRule(expression);
      if (!compiled.ok)
        problems.push({ path: '', expression, error: compiled.error });
    }
  }
  for (const [child, suffix] of schemaChildren(schema))
    for (const p of relativeProblems(child))
      problems.push({ ...p, path: `${suffix}${p.path}` });
  problemCache.set(schema, problems);
  return problems;
}

/** Every rule and messageExpression under `schema` the test double cannot compile. */
export function celRuleProblems(schema: Schema): CelRuleProblem[] {
  return relativeProblems(schema).map(p => ({
    ...p,
    path: p.path.replace(/^\./, '') || '<root>',
  }));
}
