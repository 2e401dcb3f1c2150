/** PATCH: server-side apply and the merge/JSON/strategic patch types. */
import { StatusError } from '../api/errors';
import { fieldErrors } from '../api/fieldErrors';
import { apiVersionOf } from '../registry/types';
import { normalizeObject } from '../schema/normalize';
import { joinTypedErrors, typedErrors } from '../schema/typedCheck';
import {
  applyConfig,
  resetFieldsFilter,
  trackUpdate,
} from '../ssa/fieldManager';
import { kubeTime } from '../ssa/managedFields';
import { JsonObject, JsonValue, getObject, isObject } from '../util/json';
import { HandlerResult, RequestContext } from './context';
import { parseYaml, servedObject, updateManager, writeOptions } from './codec';
import { getStored } from './objects';
import { jsonPatch, mergePatch, strategicMergePatch } from './patchFormats';
import {
  assertValid,
  checkName,
  checkNamespace,
  checkResourceVersion,
  normalizeRequestObject,
  persistCreate,
  persistUpdate,
  prepareCreate,
  prepareUpdate,
  requireNamespace,
  warningHeader,
} from './strategy';

const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';

/** Go's GroupVersionKind.String(): `group/version, Kind=Kind`. */
function gvkString(apiVersion: string, kind: string): string {
  const [group, version] = apiVersion.includes('/')
    ? apiVersion.split('/')
    : ['', apiVersion];
  return `${group}/${version}, Kind=${kind}`;
}

function decodeApplyPatch(ctx: RequestContext): JsonObject {
  let value: JsonValue;
  try {
    value = parseYaml(ctx.body.toString('utf8'));
  } catch (e) {
    throw StatusError.badRequest(
      `error decoding YAML: ${(e as Error).message}`,
    );
  }
  if (!isObject(value))
    throw StatusError.badRequest(
      'error decoding YAML: the patch must be an object',
    );
  return value;
}

function exists(ctx: RequestContext): JsonObject | undefined {
  const obj = ctx.store.getRaw(ctx.rt, ctx.info.namespace, ctx.info.name ?? '');
  return obj ? { ...obj, apiVersion: apiVersionOf(ctx.rt) } : undefined;
}

function handleApply(ctx: RequestContext): HandlerResult {
  const opts = writeOptions(ctx, 'PatchOptions');
  const force = ctx.query.get('force') === 'true';
  if (!opts.fieldManager) {
    throw StatusError.invalid(
      { group: 'meta.k8s.io', kind: 'PatchOptions' },
      '',
      [fieldErrors.required('fieldManager', 'is required for apply patch')],
    );
  }
  const patch = decodeApplyPatch(ctx);
  const meta = isObject(patch.metadata) ? patch.metadata : {};
  if (meta.managedFields !== undefined && meta.managedFields !== null) {
    throw StatusError.badRequest('metadata.managedFields must be nil');
  }
  const apiVersion = apiVersionOf(ctx.rt);
  if (patch.apiVersion !== apiVersion || patch.kind !== ctx.rt.kind) {
    throw StatusError.badRequest(
      `invalid object type: ${gvkString(
        String(patch.apiVersion ?? ''),
        String(patch.kind ?? ''),
      )}`,
    );
  }
  const errs = typedErrors(patch, ctx.rt.schema);
  if (errs.length > 0) {
    const where = `${String(meta.namespace ?? '')}/${String(
      meta.name ?? '',
    )}; ${gvkString(apiVersion, ctx.rt.kind)}`;
    throw StatusError.unclassified(
      `failed to create typed patch object (${where}): ${joinTypedErrors(
        errs,
      )}`,
    );
  }
  const old = exists(ctx);
  if (!old && ctx.info.subresource)
    throw StatusError.notFound(
      { group: ctx.rt.group, resource: ctx.rt.plural },
      ctx.info.name ?? '',
    );
  if (old) checkResourceVersion(ctx, old, patch, false);
  const merged = applyConfig({
    live: old ?? { apiVersion, kind: ctx.rt.kind },
    patch,
    schema: ctx.rt.schema,
    manager: opts.fieldManager,
    apiVersion,
    subresource: ctx.info.subresource,
    filter: resetFieldsFilter(ctx.rt.hasStatus, ctx.info.subresource),
    force,
    now: kubeTime(ctx.now),
  });
  checkName(ctx, merged);
  checkNamespace(ctx, merged);
  normalizeObject(merged, ctx.rt.schema, {
    prune: false,
    dropNulls: !ctx.rt.builtin,
    defaults: true,
  });
  ctx.rt.hooks?.normalize?.(merged);
  if (!old) {
    requireNamespace(ctx);
    prepareCreate(ctx, merged);
    assertValid(ctx.rt, merged, undefined);
    return {
      code: 201,
      body: servedObject(ctx.rt, persistCreate(ctx, merged, opts.dryRun)),
    };
  }
  const next = prepareUpdate(ctx, old, merged, ctx.info.subresource);
  assertValid(ctx.rt, next, old);
  return {
    code: 200,
    body: servedObject(ctx.rt, persistUpdate(ctx, old, next, opts.dryRun)),
  };
}

function decodeJson(ctx: RequestContext): JsonValue {
  try {
    return JSON.parse(ctx.body.toString('utf8')) as JsonValue;
  } catch (e) {
    throw StatusError.badRequest(
      `error decoding patch: ${(e as Error).message}`,
    );
  }
}

function handleOtherPatch(ctx: RequestContext): HandlerResult {
  const opts = writeOptions(ctx, 'PatchOptions');
  if (ctx.query.get('force') !== null) {
    throw StatusError.invalid(
      { group: 'meta.k8s.io', kind: 'PatchOptions' },
      '',
      [
        fieldErrors.forbidden(
          'force',
          'may not be specified for non-apply patch',
        ),
      ],
    );
  }
  const old = getStored(ctx);
  const patch = decodeJson(ctx);
  let patched: JsonValue;
  if (ctx.contentType === MERGE) patched = mergePatch(old, patch);
  else if (ctx.contentType === JSON_PATCH) patched = jsonPatch(old, patch);
  else patched = strategicMergePatch(old, patch, ctx.rt.schema);
  if (!isObject(patched))
    throw StatusError.badRequest('the patched document is not an object');
  const obj = patched;
  obj.apiVersion = apiVersionOf(ctx.rt);
  obj.kind = ctx.rt.kind;
  const warnings = normalizeRequestObject(ctx.rt, obj, opts);
  checkName(ctx, obj);
  checkNamespace(ctx, obj);
  const patchMeta =
    isObject(patch) && isObject(patch.metadata) ? patch.metadata : {};
  if (patchMeta.resourceVersion !== undefined)
    checkResourceVersion(ctx, old, obj, false);
  getObject(obj, 'metadata').managedFields = trackUpdate({
    live: old,
    next: obj,
    schema: ctx.rt.schema,
    manager: updateManager(ctx, opts),
    apiVersion: apiVersionOf(ctx.rt),
    subresource: ctx.info.subresource,
    filter: resetFieldsFilter(ctx.rt.hasStatus, ctx.info.subresource),
    now: kubeTime(ctx.now),
  });
  const next = prepareUpdate(ctx, old, obj, ctx.info.subresource);
  assertValid(ctx.rt, next, old);
  return {
    code: 200,
    body: servedObject(ctx.rt, persistUpdate(ctx, old, next, opts.dryRun)),
    headers: warningHeader(warnings),
  };
}

export function handlePatch(ctx: RequestContext): HandlerResult {
  const accepted = ctx.rt.builtin
    ? [JSON_PATCH, MERGE, STRATEGIC, APPLY]
    : [JSON_PATCH, MERGE, APPLY];
  if (!accepted.includes(ctx.contentType)) {
    throw StatusError.unsupportedMediaType(ctx.contentType, accepted);
  }
  if (ctx.contentType === APPLY) return handleApply(ctx);
  return handleOtherPatch(ctx);
}
