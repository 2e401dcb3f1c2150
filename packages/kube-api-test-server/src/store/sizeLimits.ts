/**
 * The size limits a real cluster puts on a request and on a stored object.
 *
 * - kube-apiserver reads at most 3 MiB of a write's body (`MaxRequestBodyBytes = 3 * 1024 * 1024`,
 *   k8s.io/apiserver pkg/server/config.go; handlers/rest.go `limitedReadBody`) and answers a larger
 *   one 413 RequestEntityTooLarge "Request entity too large: limit is 3145728".
 * - etcd refuses a write larger than its `--max-request-bytes` (default 1.5 MiB: `DefaultMaxRequestBytes
 *   = 1.5 * 1024 * 1024`, go.etcd.io/etcd server/embed/config.go) with "etcdserver: request is too
 *   large", which kube-apiserver passes on as a 500 Status without a reason. Dry runs are not
 *   written to etcd and are accepted (recorded against v1.34.9: a 1.8 MB Job is refused with that
 *   500, its dry run answers 201).
 *
 * etcd measures the raft request: the key and the stored value, which is protobuf for built-in kinds
 * and JSON for custom resources. The double measures the object's JSON, so a built-in object within
 * a few percent of the limit may be refused here and stored by a real server.
 */
import { StatusError } from '../api/errors';
import { JsonObject } from '../util/json';

export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;
export const ETCD_MAX_REQUEST_BYTES = 1.5 * 1024 * 1024;

/** 413 for a request body over kube-apiserver's limit. */
export function checkRequestBodySize(body: Buffer): void {
  if (body.length <= MAX_REQUEST_BODY_BYTES) return;
  throw StatusError.of({
    code: 413,
    reason: 'RequestEntityTooLarge',
    message: `Request entity too large: limit is ${MAX_REQUEST_BODY_BYTES}`,
  });
}

/** 500 "etcdserver: request is too large" for an object etcd would not store. */
export function checkStoredSize(obj: JsonObject): void {
  if (Buffer.byteLength(JSON.stringify(obj)) <= ETCD_MAX_REQUEST_BYTES) return;
  throw StatusError.unclassified('etcdserver: request is too large');
}
