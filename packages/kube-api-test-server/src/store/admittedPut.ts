import { assertValid, normalizeRequestObject } from '../handlers/strategy';
import type { ResourceRegistry } from '../registry/ResourceRegistry';
import { JsonObject, getObject, isObject } from '../util/json';
import type { ObjectStore } from './ObjectStore';

/**
 * The double's `objects.put`, admitted as kube-apiserver admits a create or a full update (PUT) of
 * the object, so that a suite sets up the same objects on the double as on the real server
 * (`httpObjects`): the schema's defaults applied and unknown fields pruned, the object validated
 * (the CRD's CEL rules, transition rules such as "Value is immutable" against the stored object
 * included), a create's strategy defaults (a Pod's restartPolicy and Pending status), and, for a
 * kind with a status subresource, the status left as it is (a create stores only what the
 * strategy sets): set it with `setStatus`, as a controller or the kubelet does.
 */
export function admittedPut(
  registry: ResourceRegistry,
  store: ObjectStore,
  object: JsonObject,
): JsonObject {
  const apiVersion = String(object.apiVersion);
  const kind = String(object.kind);
  const rt = registry.find(apiVersion, kind);
  if (!rt) throw new Error(`unknown resource ${apiVersion} ${kind}`);
  const obj: JsonObject = JSON.parse(JSON.stringify(object));
  normalizeRequestObject(rt, obj, { dryRun: false, fieldValidation: 'Ignore' });
  const meta = getObject(obj, 'metadata');
  const old = store.get({
    apiVersion,
    kind,
    name: String(meta.name),
    namespace: rt.namespaced ? String(meta.namespace ?? 'default') : undefined,
  });
  if (rt.hasStatus) {
    if (old?.status !== undefined) obj.status = old.status;
    else delete obj.status;
  }
  if (old && isObject(old.metadata)) meta.uid ??= old.metadata.uid;
  // A create's strategy defaults (a Pod's restartPolicy, its Pending status, ...).
  else rt.hooks?.prepareForCreate?.(obj);
  assertValid(rt, obj, old);
  return store.put(obj);
}
