import { KubernetesApiError } from './KubernetesApiError';

const status = (code: number, reason: string, message: string) => ({
  kind: 'Status',
  apiVersion: 'v1',
  status: 'Failure',
  code,
  reason,
  message,
});

describe('KubernetesApiError.fromResponse', () => {
  const rows: Array<[string, number, unknown, string, boolean]> = [
    [
      '409 field-manager conflict',
      409,
      status(
        409,
        'Conflict',
        'Apply failed with 1 conflict: conflict with "kubectl": .spec.x',
      ),
      'conflict',
      false,
    ],
    [
      '422 Invalid',
      422,
      status(
        422,
        'Invalid',
        'LLMInferenceService.serving.kserve.io "x" is invalid',
      ),
      'invalid',
      false,
    ],
    [
      '500 failed to create typed patch object (unknown field)',
      500,
      status(
        500,
        'InternalError',
        'failed to create typed patch object (models/x; serving.kserve.io/v1beta1, Kind=InferenceService): .spec.bogus: field not declared in schema',
      ),
      'invalid',
      false,
    ],
    [
      '400 body/URL mismatch',
      400,
      status(
        400,
        'BadRequest',
        'the name of the object (a) does not match the name on the URL (b)',
      ),
      'invalid',
      false,
    ],
    [
      '403 Forbidden',
      403,
      status(403, 'Forbidden', 'forbidden'),
      'forbidden',
      false,
    ],
    [
      '404 namespace missing',
      404,
      status(404, 'NotFound', 'namespaces "x" not found'),
      'not-found',
      false,
    ],
    [
      '429 too many requests',
      429,
      status(429, 'TooManyRequests', 'slow down'),
      'unavailable',
      true,
    ],
    [
      '500 etcdserver: request is too large (an object over etcd --max-request-bytes)',
      500,
      {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'etcdserver: request is too large',
        code: 500,
      },
      'invalid',
      false,
    ],
    [
      '413 over kube-apiserver request body limit',
      413,
      status(
        413,
        'RequestEntityTooLarge',
        'Request entity too large: limit is 3145728',
      ),
      'invalid',
      false,
    ],
    [
      '500 other internal error',
      500,
      status(500, 'InternalError', 'etcd timeout'),
      'unavailable',
      true,
    ],
    [
      '503 unavailable, body not a Status',
      503,
      '<html>bad gateway</html>',
      'unavailable',
      true,
    ],
  ];
  it.each(rows)('%s', (_name, code, body, kind, retryable) => {
    const e = KubernetesApiError.fromResponse(
      code,
      typeof body === 'string' ? body : JSON.stringify(body),
    );
    expect(e.kind).toBe(kind);
    expect(e.retryable).toBe(retryable);
    expect(e.statusCode).toBe(code);
  });

  it('network errors are retryable and say what failed', () => {
    const e = KubernetesApiError.fromNetworkError(
      Object.assign(new Error('fetch failed'), {
        cause: {
          code: 'ECONNREFUSED',
          message: 'connect ECONNREFUSED 127.0.0.1:1',
        },
      }),
    );
    expect(e.retryable).toBe(true);
    expect(e.message).toBe(
      'cannot reach the Kubernetes API (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:1',
    );
  });
});
