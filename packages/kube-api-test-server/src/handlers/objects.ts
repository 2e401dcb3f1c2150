/** GET, LIST, POST, PUT and DELETE of objects. */
import { StatusError } from '../api/errors';
import {
  labelsOf,
  parseFieldSelector,
  parseLabelSelector,
} from '../api/selectors';
import { apiVersionOf } from '../registry/types';
import { resetFieldsFilter, trackUpdate } from '../ssa/fieldManager';
import { kubeTime } from '../ssa/managedFields';
import {
  JsonObject,
  JsonValue,
  deepClone,
  getObject,
  isObject,
} from '../util/json';
import { HandlerResult, RequestContext } from './context';
import {
  checkTypeMeta,
  decodeObject,
  listBody,
  servedObject,
  updateManager,
  writeOptions,
} from './codec';
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

const gr = (ctx: RequestContext) => ({
  group: ctx.rt.group,
  resource: ctx.rt.plural,
});

export function getStored(ctx: RequestContext): JsonObject {
  const obj = ctx.store.getRaw(ctx.rt, ctx.info.namespace, ctx.info.name ?? '');
  if (!obj) throw StatusError.notFound(gr(ctx), ctx.info.name ?? '');
  return { ...obj, apiVersion: apiVersionOf(ctx.rt) };
}

export function handleGet(ctx: RequestContext): HandlerResult {
  return { code: 200, body: servedObject(ctx.rt, getStored(ctx)) };
}

interface Continue {
  rv: number;
  after: string;
}

export function selectObjects(ctx: RequestContext): JsonObject[] {
  const selector = parseLabelSelector(
    ctx.query.get('labelSelector') ?? undefined,
  );
  const fields = parseFieldSelector(
    ctx.query.get('fieldSelector') ?? undefined,
    ctx.rt.selectableFields,
  );
  return ctx.store
    .listRaw(ctx.rt, ctx.info.namespace)
    .filter(o => selector(labelsOf(o)) && fields(o));
}

function objectKey(o: JsonObject): string {
  const m = o.metadata as JsonObject;
  return `${String(m.namespace ?? '')}/${String(m.name)}`;
}

export function handleList(ctx: RequestContext): HandlerResult {
  let items = selectObjects(ctx);
  let rv = ctx.store.currentResourceVersion();
  const token = ctx.query.get('continue');
  if (token) {
    let parsed: Continue;
    try {
      parsed = JSON.parse(
        Buffer.from(token, 'base64url').toString('utf8'),
      ) as Continue;
    } catch {
      throw StatusError.badRequest(
        'continue key is not valid: illegal base64 data at input byte 0',
      );
    }
    rv = parsed.rv;
    items = items.filter(o => objectKey(o) > parsed.after);
  }
  const limit = Number(ctx.query.get('limit') ?? 0);
  let cont = '';
  let remaining: number | undefined;
  if (limit > 0 && items.length > limit) {
    // kube-apiserver counts the remaining items only when no label or field selector filters the
    // list (k8s.io/apiserver/pkg/storage/etcd3/store.go: `if pred.Empty()`; seen on v1.34.9 in
    // src/envtest/conformance.test.ts).
    const filtered =
      !!ctx.query.get('labelSelector') || !!ctx.query.get('fieldSelector');
    remaining = filtered ? undefined : items.length - limit;
    items = items.slice(0, limit);
    cont = Buffer.from(
      JSON.stringify({ rv, after: objectKey(items[items.length - 1]) }),
    ).toString('base64url');
  }
  return { code: 200, body: listBody(ctx.rt, items, rv, cont, remaining) };
}

export function handleCreate(ctx: RequestContext): HandlerResult {
  const opts = writeOptions(ctx, 'CreateOptions');
  const obj = decodeObject(ctx);
  checkTypeMeta(obj, ctx.rt);
  const warnings = normalizeRequestObject(ctx.rt, obj, opts);
  checkNamespace(ctx, obj);
  getObject(obj, 'metadata').managedFields = trackUpdate({
    live: undefined,
    next: obj,
    schema: ctx.rt.schema,
    manager: updateManager(ctx, opts),
    apiVersion: apiVersionOf(ctx.rt),
    filter: resetFieldsFilter(ctx.rt.hasStatus, undefined),
    now: kubeTime(ctx.now),
  });
  requireNamespace(ctx);
  prepareCreate(ctx, obj);
  assertValid(ctx.rt, obj, undefined);
  const stored = persistCreate(
    {
      ...ctx,
      info: { ...ctx.info, name: String((obj.metadata as JsonObject).name) },
    },
    obj,
    opts.dryRun,
  );
  return {
    code: 201,
    body: servedObject(ctx.rt, stored),
    headers: warningHeader(warnings),
  };
}

export function handleUpdate(ctx: RequestContext): HandlerResult {
  const opts = writeOptions(ctx, 'UpdateOptions');
  const obj = decodeObject(ctx);
  checkTypeMeta(obj, ctx.rt);
  const warnings = normalizeRequestObject(ctx.rt, obj, opts);
  checkName(ctx, obj);
  checkNamespace(ctx, obj);
  const old = getStored(ctx);
  checkResourceVersion(ctx, old, obj, !ctx.rt.allowUnconditionalUpdate);
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
  const stored = persistUpdate(ctx, old, next, opts.dryRun);
  return {
    code: 200,
    body: servedObject(ctx.rt, stored),
    headers: warningHeader(warnings),
  };
}

interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

function deleteOptions(ctx: RequestContext): Preconditions {
  const text = ctx.body.toString('utf8').trim();
  if (!text) return {};
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (e) {
    throw StatusError.badRequest(
      `couldn't get version/kind; json parse error: ${(e as Error).message}`,
    );
  }
  const pre =
    isObject(value) && isObject(value.preconditions) ? value.preconditions : {};
  return {
    uid: typeof pre.uid === 'string' ? pre.uid : undefined,
    resourceVersion:
      typeof pre.resourceVersion === 'string' ? pre.resourceVersion : undefined,
  };
}

/** Deletes one stored object; returns what DELETE answers with. */
function deleteOne(
  ctx: RequestContext,
  old: JsonObject,
  dryRun: boolean,
  pre: Preconditions,
): JsonObject | 'deleted' {
  const meta = old.metadata as JsonObject;
  const name = String(meta.name);
  if (pre.uid !== undefined && pre.uid !== meta.uid) {
    throw StatusError.conflict(
      gr(ctx),
      name,
      `Precondition failed: UID in precondition: ${
        pre.uid
      }, UID in object meta: ${String(meta.uid)}`,
    );
  }
  if (
    pre.resourceVersion !== undefined &&
    pre.resourceVersion !== meta.resourceVersion
  ) {
    throw StatusError.conflict(
      gr(ctx),
      name,
      `Precondition failed: ResourceVersion in precondition: ${
        pre.resourceVersion
      }, ResourceVersion in object meta: ${String(meta.resourceVersion)}`,
    );
  }
  const finalizers = Array.isArray(meta.finalizers) ? meta.finalizers : [];
  if (finalizers.length > 0 && ctx.rt.kind !== 'Namespace') {
    if (meta.deletionTimestamp || dryRun) return old;
    const next = deepClone(old);
    const m = getObject(next, 'metadata');
    m.deletionTimestamp = kubeTime(ctx.now);
    m.deletionGracePeriodSeconds = 0;
    if (ctx.rt.hasGeneration)
      m.generation = (typeof m.generation === 'number' ? m.generation : 0) + 1;
    return ctx.store.write(ctx.rt, next);
  }
  if (dryRun) return 'deleted';
  if (ctx.rt.kind === 'Namespace') {
    ctx.store.purgeNamespace(name);
    const gone = ctx.store.remove(ctx.rt, undefined, name)!;
    const m = getObject(gone, 'metadata');
    m.deletionTimestamp = kubeTime(ctx.now);
    gone.status = { phase: 'Terminating' };
    return gone;
  }
  ctx.store.remove(ctx.rt, ctx.info.namespace, name);
  return 'deleted';
}

const RETURNS_OBJECT = ['Pod', 'Service', 'Namespace'];

export function handleDelete(ctx: RequestContext): HandlerResult {
  const opts = writeOptions(ctx, 'DeleteOptions');
  const old = getStored(ctx);
  const result = deleteOne(ctx, old, opts.dryRun, deleteOptions(ctx));
  if (result !== 'deleted')
    return { code: 200, body: servedObject(ctx.rt, result) };
  if (RETURNS_OBJECT.includes(ctx.rt.kind))
    return { code: 200, body: servedObject(ctx.rt, old) };
  const meta = old.metadata as JsonObject;
  return {
    code: 200,
    body: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: {
        name: meta.name,
        group: ctx.rt.group || undefined,
        kind: ctx.rt.plural,
        uid: meta.uid,
      },
    },
  };
}

export function handleDeleteCollection(ctx: RequestContext): HandlerResult {
  const opts = writeOptions(ctx, 'DeleteOptions');
  const pre = deleteOptions(ctx);
  const deleted: JsonObject[] = [];
  for (const obj of selectObjects(ctx)) {
    const name = String((obj.metadata as JsonObject).name);
    const one = { ...ctx, info: { ...ctx.info, name } };
    const result = deleteOne(one, obj, opts.dryRun, pre);
    deleted.push(result === 'deleted' ? obj : result);
  }
  return {
    code: 200,
    body: listBody(ctx.rt, deleted, ctx.store.currentResourceVersion(), ''),
  };
}
