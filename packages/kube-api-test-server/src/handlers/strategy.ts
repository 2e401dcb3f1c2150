/**
 * The write pipeline shared by create, update, patch and apply: system
 * fields, status/spec reset, generation, validation and persistence.
 */
import crypto from 'node:crypto';
import { StatusError } from '../api/errors';
import { FieldError, fieldErrors } from '../api/fieldErrors';
import { validateObjectMeta } from '../api/names';
import { celErrors, hasCelRules } from '../cel/rules';
import { ResourceType } from '../registry/types';
import { normalizeObject } from '../schema/normalize';
import { isBlockingError, validateAgainstSchema } from '../schema/validator';
import { kubeTime } from '../ssa/managedFields';
import { checkStoredSize } from '../store/sizeLimits';
import {
  JsonObject,
  deepClone,
  deepEqual,
  getObject,
  isObject,
} from '../util/json';
import { RequestContext } from './context';
import { WriteOptions } from './codec';

const gr = (rt: ResourceType) => ({ group: rt.group, resource: rt.plural });

/** Prunes unknown fields (honouring fieldValidation), drops nulls, applies defaults. Returns warnings. */
export function normalizeRequestObject(
  rt: ResourceType,
  obj: JsonObject,
  opts: WriteOptions,
): string[] {
  const unknown = normalizeObject(obj, rt.schema, {
    prune: true,
    dropNulls: !rt.builtin,
    defaults: true,
  });
  rt.hooks?.normalize?.(obj);
  if (unknown.length === 0 || opts.fieldValidation === 'Ignore') return [];
  if (opts.fieldValidation === 'Strict') {
    throw StatusError.badRequest(
      `strict decoding error: ${unknown
        .map(u => `unknown field "${u}"`)
        .join(', ')}`,
    );
  }
  return unknown.map(u => `unknown field "${u}"`);
}

export function warningHeader(warnings: string[]): Record<string, string> {
  if (warnings.length === 0) return {};
  return {
    Warning: warnings.map(w => `299 - ${JSON.stringify(w)}`).join(', '),
  };
}

/** Body namespace must match the URL; a missing one is filled in. */
export function checkNamespace(ctx: RequestContext, obj: JsonObject): void {
  const meta = getObject(obj, 'metadata');
  if (!ctx.rt.namespaced) {
    delete meta.namespace;
    return;
  }
  const ns = ctx.info.namespace ?? '';
  if (meta.namespace && meta.namespace !== ns) {
    throw StatusError.badRequest(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  }
  meta.namespace = ns;
}

export function checkName(ctx: RequestContext, obj: JsonObject): void {
  const name =
    isObject(obj.metadata) && typeof obj.metadata.name === 'string'
      ? obj.metadata.name
      : '';
  if (name !== ctx.info.name) {
    throw StatusError.badRequest(
      `the name of the object (${name}) does not match the name on the URL (${
        ctx.info.name ?? ''
      })`,
    );
  }
}

/** NamespaceLifecycle admission: objects can only be created in existing namespaces. */
export function requireNamespace(ctx: RequestContext): void {
  if (!ctx.rt.namespaced) return;
  const ns = ctx.info.namespace ?? '';
  if (!ctx.store.namespaceExists(ns))
    throw StatusError.notFound({ group: '', resource: 'namespaces' }, ns);
}

const GENERATE_CHARS = 'bcdfghjklmnpqrstvwxz2456789';

/** System fields and strategy defaults of a new object. */
export function prepareCreate(ctx: RequestContext, obj: JsonObject): void {
  const meta = getObject(obj, 'metadata');
  if (
    !meta.name &&
    typeof meta.generateName === 'string' &&
    meta.generateName
  ) {
    let suffix = '';
    for (let i = 0; i < 5; i++)
      suffix += GENERATE_CHARS[crypto.randomInt(GENERATE_CHARS.length)];
    meta.name = `${meta.generateName}${suffix}`;
  }
  meta.uid = crypto.randomUUID();
  meta.creationTimestamp = kubeTime(ctx.now);
  if (ctx.rt.hasGeneration) meta.generation = 1;
  else delete meta.generation;
  for (const k of [
    'resourceVersion',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'selfLink',
  ])
    delete meta[k];
  if (ctx.rt.hasStatus) delete obj.status;
  ctx.rt.hooks?.prepareForCreate?.(obj);
}

function nonMetadata(obj: JsonObject): JsonObject {
  const { metadata: _m, ...rest } = obj;
  return rest;
}

/**
 * Builds the object an update stores: system fields come from the old
 * object; the main resource cannot change status and the status
 * subresource can change nothing else.
 */
export function prepareUpdate(
  ctx: RequestContext,
  old: JsonObject,
  obj: JsonObject,
  subresource?: string,
): JsonObject {
  const oldMeta = old.metadata as JsonObject;
  let next: JsonObject;
  if (subresource === 'status') {
    next = deepClone(old);
    const managed = isObject(obj.metadata)
      ? obj.metadata.managedFields
      : undefined;
    if (managed !== undefined)
      getObject(next, 'metadata').managedFields = managed;
    if (obj.status !== undefined) next.status = obj.status;
    else delete next.status;
    return next;
  }
  next = obj;
  const meta = getObject(next, 'metadata');
  if (!meta.uid) meta.uid = oldMeta.uid;
  for (const k of [
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'generation',
  ]) {
    if (oldMeta[k] !== undefined) meta[k] = oldMeta[k];
    else delete meta[k];
  }
  if (ctx.rt.hasStatus) {
    if (old.status !== undefined) next.status = old.status;
    else delete next.status;
  }
  if (ctx.rt.hasGeneration && !deepEqual(nonMetadata(next), nonMetadata(old))) {
    meta.generation =
      (typeof oldMeta.generation === 'number' ? oldMeta.generation : 0) + 1;
  }
  return next;
}

const BLOCKED_CEL: FieldError = {
  type: 'Invalid',
  field: '<nil>',
  value: null,
  detail:
    'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
};

/** ObjectMeta, OpenAPI schema, list invariants, CEL rules and kind-specific checks. */
export function validateObject(
  rt: ResourceType,
  obj: JsonObject,
  old: JsonObject | undefined,
): FieldError[] {
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  const errs = validateObjectMeta(meta, {
    namespaced: rt.namespaced,
    nameRule: rt.nameRule,
  });
  if (old && isObject(old.metadata) && meta.uid !== old.metadata.uid) {
    errs.push(
      fieldErrors.invalid('metadata.uid', meta.uid ?? '', 'field is immutable'),
    );
  }
  const schemaErrs = validateAgainstSchema(obj, rt.schema);
  errs.push(...schemaErrs);
  if (!rt.builtin) {
    if (!hasCelRules(rt.schema)) {
      // kube-apiserver builds no CEL validator for CRDs without rules.
    } else if (schemaErrs.some(isBlockingError)) errs.push(BLOCKED_CEL);
    else errs.push(...celErrors(obj, rt.schema, old));
  }
  errs.push(...(rt.hooks?.validate?.(obj, old) ?? []));
  return errs;
}

export function assertValid(
  rt: ResourceType,
  obj: JsonObject,
  old: JsonObject | undefined,
): void {
  const errs = validateObject(rt, obj, old);
  if (errs.length === 0) return;
  const name =
    isObject(obj.metadata) && typeof obj.metadata.name === 'string'
      ? obj.metadata.name
      : '';
  throw StatusError.invalid({ group: rt.group, kind: rt.kind }, name, errs);
}

/** Stores a new object (201) unless it exists (409) or this is a dry run. */
export function persistCreate(
  ctx: RequestContext,
  obj: JsonObject,
  dryRun: boolean,
): JsonObject {
  const meta = getObject(obj, 'metadata');
  const name = String(meta.name);
  if (ctx.store.getRaw(ctx.rt, ctx.info.namespace, name))
    throw StatusError.alreadyExists(gr(ctx.rt), name);
  if (dryRun) return obj;
  checkStoredSize(obj);
  return ctx.store.write(ctx.rt, obj);
}

/**
 * Stores an updated object. A no-op keeps the old resourceVersion; an
 * object whose deletion waited for finalizers goes away once they are gone.
 */
export function persistUpdate(
  ctx: RequestContext,
  old: JsonObject,
  next: JsonObject,
  dryRun: boolean,
): JsonObject {
  const meta = getObject(next, 'metadata');
  meta.resourceVersion = (old.metadata as JsonObject).resourceVersion;
  ignoreManagedFieldsTimestamps(next, old);
  if (deepEqual(next, old)) return old;
  if (dryRun) return next;
  checkStoredSize(next);
  const finalizers = Array.isArray(meta.finalizers) ? meta.finalizers : [];
  if (meta.deletionTimestamp && finalizers.length === 0) {
    const written = ctx.store.write(ctx.rt, next);
    ctx.store.remove(ctx.rt, ctx.info.namespace, String(meta.name));
    return written;
  }
  return ctx.store.write(ctx.rt, next);
}

/**
 * kube-apiserver's IgnoreManagedFieldsTimestampsTransformer (registry Store.Update, since v1.28):
 * when an update changes nothing but the times of managedFields entries, the stored times are
 * kept, so the write is a no-op and the resourceVersion stays. This happens when the field manager
 * sees a change that defaulting then undoes: re-applying an atomic list whose items the CRD
 * defaults (an AIGatewayRoute's rules) in a later second than the first apply.
 */
function ignoreManagedFieldsTimestamps(
  next: JsonObject,
  old: JsonObject,
): void {
  const withoutTimes = (o: JsonObject): JsonObject => {
    const copy = deepClone(o);
    const meta = isObject(copy.metadata) ? copy.metadata : undefined;
    if (meta && Array.isArray(meta.managedFields)) {
      meta.managedFields = meta.managedFields.map(e => {
        if (!isObject(e)) return e;
        const { time: _time, ...rest } = e;
        return rest;
      });
    }
    return copy;
  };
  const stored = (old.metadata as JsonObject).managedFields;
  if (
    stored !== undefined &&
    deepEqual(withoutTimes(next), withoutTimes(old))
  ) {
    getObject(next, 'metadata').managedFields = deepClone(stored);
  }
}

/** Optimistic concurrency: a given resourceVersion must match the stored one. */
export function checkResourceVersion(
  ctx: RequestContext,
  old: JsonObject,
  obj: JsonObject,
  required: boolean,
): void {
  const rv = isObject(obj.metadata) ? obj.metadata.resourceVersion : undefined;
  if (rv === undefined || rv === '' || rv === null) {
    if (!required) return;
    throw StatusError.invalid(
      { group: ctx.rt.group, kind: ctx.rt.plural },
      ctx.info.name ?? '',
      [
        {
          type: 'Invalid',
          field: 'metadata.resourceVersion',
          rawValue: '0x0',
          detail: 'must be specified for an update',
        },
      ],
    );
  }
  if (rv !== (old.metadata as JsonObject).resourceVersion)
    throw StatusError.modified(gr(ctx.rt), ctx.info.name ?? '');
}
