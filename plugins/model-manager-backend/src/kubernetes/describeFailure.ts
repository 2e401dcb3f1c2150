import type { FailureKind, ObjectResult } from './types';
import { ADMISSION_DENIED, KubernetesApiError } from './KubernetesApiError';

/** `Kind namespace/name`, as messages name an object. */
export const objectLabel = (o: {
  kind: string;
  name: string;
  namespace?: string;
}) => `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;

/**
 * Marks `result` failed with what the API server said, in words, and what to do: a field-manager
 * conflict names the managers and fields (and `force: true`), a 409 without field causes says the
 * object changed meanwhile, a 422 quotes the validation, a 403 the refusal, a 404 names what is
 * missing (a namespace: create it), anything else says the API was unavailable after
 * `maxAttempts`. `what` says what was or was not applied before this object.
 * @returns the kind of failure (it decides the HTTP status).
 */
export function describeFailure(
  result: ObjectResult,
  error: unknown,
  what: string,
  maxAttempts: number,
): FailureKind {
  const e =
    error instanceof KubernetesApiError
      ? error
      : KubernetesApiError.fromNetworkError(error);
  result.action = 'failed';
  result.reason = e.reason;
  const label = objectLabel(result);
  if (e.kind === 'conflict') {
    result.conflicts = e.causes
      .filter(c => c.field)
      .map(c => ({
        manager:
          /conflict with "([^"]+)"/.exec(c.message ?? '')?.[1] ??
          'another manager',
        field: c.field!,
      }));
    const owners = [...new Set(result.conflicts.map(c => c.manager))].join(
      ', ',
    );
    // A 409 without field causes is not a field-manager conflict (e.g. the object changed
    // between a read and a write): say what the API server said.
    result.message =
      result.conflicts.length === 0
        ? `${label}: the API server answered 409 Conflict: ${e.message}; try again (${what})`
        : `${label}: fields are owned by another field manager (${owners}): ${result.conflicts
            .map(c => c.field)
            .join(
              ', ',
            )}. Someone changed them outside model-manager; deploy with force: true to take them over (${what})`;
  } else if (/etcdserver: request is too large/.test(e.message)) {
    result.message = `${label} is too large to store: etcd refuses a write over its --max-request-bytes (default 1.5 MiB) and the API server answered 500 "${e.message}"; make the object smaller (${what})`;
  } else if (ADMISSION_DENIED.test(e.message)) {
    const [denied, webhook] = ADMISSION_DENIED.exec(e.message)!;
    const why = e.message.slice(denied.length).trim() || 'without explanation';
    result.message = `${label} was refused by the cluster's admission webhook ${webhook}: ${why} (${what})`;
  } else if (e.kind === 'invalid') {
    result.message = `${label} was rejected by the API server as invalid: ${e.message} (${what})`;
  } else if (e.kind === 'forbidden') {
    result.message = `${label}: the cluster refused access: ${e.message} (${what})`;
  } else if (e.kind === 'not-found') {
    result.message = `${label}: ${e.message}${
      /namespaces? "/.test(e.message) ? '; create the namespace first' : ''
    } (${what})`;
  } else {
    result.message = `${label}: the Kubernetes API is unavailable after ${maxAttempts} attempt(s): ${e.message} (${what})`;
  }
  return e.kind;
}
