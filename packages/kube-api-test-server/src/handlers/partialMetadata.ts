/**
 * Metadata-only answers: a GET or LIST asked with
 * `Accept: application/json;as=PartialObjectMetadata[List];g=meta.k8s.io;v=v1` is answered with
 * the objects' `metadata` alone, as kube-apiserver does (k8s.io/apiserver
 * pkg/endpoints/handlers/response.go `transformObject`: `asPartialObjectMetadata` for one
 * object, `asPartialObjectMetadataList` for a list, each item typed
 * `meta.k8s.io/v1 PartialObjectMetadata`; asking for the single form on a list, or the list form
 * on one object, is 406 NotAcceptable). This is how a client checks that a Secret exists without
 * ever receiving its data.
 */
import { StatusError } from '../api/errors';
import { JsonObject, isObject } from '../util/json';

const META = { group: 'meta.k8s.io', version: 'v1' };

/** The `as=` target of an Accept header that asks for metadata only (undefined otherwise). */
export function metadataTarget(
  accept: string | undefined,
): 'PartialObjectMetadata' | 'PartialObjectMetadataList' | undefined {
  if (!accept) return undefined;
  for (const clause of accept.split(',')) {
    const [type, ...params] = clause.split(';').map(p => p.trim());
    if (type !== 'application/json' && type !== '*/*') continue;
    const p = Object.fromEntries(
      params.map(kv => {
        const eq = kv.indexOf('=');
        return [kv.slice(0, eq).trim(), kv.slice(eq + 1).trim()];
      }),
    );
    if (p.g !== META.group || p.v !== META.version) continue;
    if (
      p.as === 'PartialObjectMetadata' ||
      p.as === 'PartialObjectMetadataList'
    )
      return p.as;
  }
  return undefined;
}

function notAcceptable(): StatusError {
  return StatusError.of({
    code: 406,
    reason: 'NotAcceptable',
    message:
      'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf',
  });
}

const partial = (obj: JsonObject): JsonObject => ({
  kind: 'PartialObjectMetadata',
  apiVersion: `${META.group}/${META.version}`,
  metadata: isObject(obj.metadata) ? obj.metadata : {},
});

/** The answer of a GET (`list: false`) or LIST as metadata only. */
export function asPartialMetadata(
  target: 'PartialObjectMetadata' | 'PartialObjectMetadataList',
  list: boolean,
  body: JsonObject,
): JsonObject {
  if (!list) {
    if (target !== 'PartialObjectMetadata') throw notAcceptable();
    return partial(body);
  }
  if (target !== 'PartialObjectMetadataList') throw notAcceptable();
  const items = Array.isArray(body.items) ? body.items : [];
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: `${META.group}/${META.version}`,
    metadata: isObject(body.metadata) ? body.metadata : {},
    items: items.filter(isObject).map(partial),
  };
}

/** The Content-Type of a metadata-only answer. */
export function partialContentType(target: string): string {
  return `application/json;as=${target};g=${META.group};v=${META.version}`;
}
