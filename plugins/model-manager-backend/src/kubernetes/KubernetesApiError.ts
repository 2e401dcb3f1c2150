import type { FailureKind } from './types';

/**
 * kube-apiserver's words for a validating or mutating webhook that refused the request
 * (k8s.io/apiserver pkg/admission/plugin/webhook/errors ToStatusErr: `admission webhook %q denied
 * the request: <its message>`); the code is the webhook's (controller-runtime's
 * `admission.Denied` answers 403, KServe's validators among them).
 */
export const ADMISSION_DENIED =
  /^admission webhook "([^"]+)" denied the request(?:: )?/;

/** A failed Kubernetes API call, classified, with the Status body's details kept. */
export class KubernetesApiError extends Error {
  readonly kind: FailureKind;
  readonly statusCode?: number;
  readonly reason?: string;
  readonly causes: Array<{ reason?: string; message?: string; field?: string }>;

  constructor(options: {
    message: string;
    kind: FailureKind;
    statusCode?: number;
    reason?: string;
    causes?: Array<{ reason?: string; message?: string; field?: string }>;
  }) {
    super(options.message);
    this.name = 'KubernetesApiError';
    this.kind = options.kind;
    this.statusCode = options.statusCode;
    this.reason = options.reason;
    this.causes = options.causes ?? [];
  }

  get retryable(): boolean {
    return this.kind === 'unavailable';
  }

  /**
   * Classifies an HTTP answer from the API server. Unknown fields and wrong types come back from
   * server-side apply as 500 "failed to create typed patch object": a validation error, not an
   * outage, so it is never retried; nor is etcd's 500 "request is too large", nor a 413 over
   * kube-apiserver's request body limit.
   */
  static fromResponse(statusCode: number, body: unknown): KubernetesApiError {
    const status = parseStatus(body);
    const message =
      status?.message ??
      (typeof body === 'string' && body
        ? body.slice(0, 500)
        : `HTTP ${statusCode}`);
    let kind: FailureKind;
    if (statusCode === 409) kind = 'conflict';
    else if (statusCode === 422 || statusCode === 400 || statusCode === 413)
      kind = 'invalid';
    // etcd refuses a write over its --max-request-bytes (default 1.5 MiB) and kube-apiserver
    // passes that on as a 500 without a reason (recorded against v1.34.9): the same object is
    // refused again however often it is sent.
    else if (
      statusCode === 500 &&
      /etcdserver: request is too large/.test(message)
    )
      kind = 'invalid';
    else if (
      statusCode === 500 &&
      /failed to create typed patch object|field not declared in schema|expected (string|map|list|numeric)/i.test(
        message,
      )
    )
      kind = 'invalid';
    // An admission webhook's decision (any code: controller-runtime's validators deny with 403,
    // others 400): the object, not the caller's access, is refused, and is refused again.
    else if (ADMISSION_DENIED.test(message)) kind = 'invalid';
    else if (statusCode === 401 || statusCode === 403) kind = 'forbidden';
    else if (statusCode === 404) kind = 'not-found';
    else kind = 'unavailable';
    return new KubernetesApiError({
      message,
      kind,
      statusCode,
      reason: status?.reason,
      causes: status?.details?.causes,
    });
  }

  static fromNetworkError(error: unknown): KubernetesApiError {
    const e = error as {
      message?: string;
      code?: string;
      cause?: { code?: string; message?: string };
    };
    const code = e?.code ?? e?.cause?.code;
    const detail = e?.cause?.message ?? e?.message ?? String(error);
    // The client library's discovery does not know the kind: its CRD is not installed. Retrying
    // cannot help.
    if (/Unrecognized API version and kind/.test(e?.message ?? '')) {
      return new KubernetesApiError({
        message: `${e.message}; the cluster does not serve this kind (is its CRD installed?)`,
        kind: 'not-found',
      });
    }
    return new KubernetesApiError({
      message: `cannot reach the Kubernetes API${
        code ? ` (${code})` : ''
      }: ${detail}`,
      kind: 'unavailable',
    });
  }
}

function parseStatus(
  body: unknown,
):
  | { message?: string; reason?: string; details?: { causes?: any[] } }
  | undefined {
  let value = body;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (value && typeof value === 'object' && (value as any).kind === 'Status')
    return value as any;
  return undefined;
}
