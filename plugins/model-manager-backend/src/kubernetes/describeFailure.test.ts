import { describeFailure } from './describeFailure';
import { KubernetesApiError } from './KubernetesApiError';
import type { ObjectResult } from './types';

const status = (code: number, message: string, causes?: unknown[]) =>
  KubernetesApiError.fromResponse(code, {
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    message,
    reason: 'x',
    code,
    ...(causes ? { details: { causes } } : {}),
  });

const result = (): ObjectResult => ({
  apiVersion: 'serving.kserve.io/v1alpha1',
  kind: 'LLMInferenceService',
  name: 'qwen',
  namespace: 'models',
  action: 'not-applied',
});

const rows = [
  {
    rule: "etcd's 500 request is too large says the object is too large to store, and is not retried",
    error: KubernetesApiError.fromResponse(500, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'etcdserver: request is too large',
      code: 500,
    }),
    failure: 'invalid',
    message:
      'LLMInferenceService models/qwen is too large to store: etcd refuses a write over its --max-request-bytes (default 1.5 MiB) and the API server answered 500 "etcdserver: request is too large"; make the object smaller (nothing was applied)',
  },
  {
    rule: 'a field-manager conflict names the managers and fields, and force',
    error: status(409, 'Apply failed with 1 conflict', [
      {
        type: 'FieldManagerConflict',
        message:
          'conflict with "kubectl-edit" using serving.kserve.io/v1alpha1',
        field: '.spec.replicas',
      },
    ]),
    failure: 'conflict',
    message:
      'LLMInferenceService models/qwen: fields are owned by another field manager (kubectl-edit): .spec.replicas. Someone changed them outside model-manager; deploy with force: true to take them over (nothing was applied)',
  },
  {
    rule: 'a 409 without field causes says what the API server said',
    error: status(409, 'the object has been modified'),
    failure: 'conflict',
    message:
      'LLMInferenceService models/qwen: the API server answered 409 Conflict: the object has been modified; try again (nothing was applied)',
  },
  {
    rule: 'a 422 quotes the validation',
    error: status(422, 'spec.replicas: Invalid value: -1'),
    failure: 'invalid',
    message:
      'LLMInferenceService models/qwen was rejected by the API server as invalid: spec.replicas: Invalid value: -1 (nothing was applied)',
  },
  {
    rule: "an admission webhook's denial (403 from controller-runtime) names the webhook and its reason, not access, and is not retried",
    error: status(
      403,
      "admission webhook \"inferenceservice.kserve-webhook-server.validator\" denied the request: update rejected: deploymentMode cannot be changed from 'Knative' to 'Standard'",
    ),
    failure: 'invalid',
    message:
      "LLMInferenceService models/qwen was refused by the cluster's admission webhook inferenceservice.kserve-webhook-server.validator: update rejected: deploymentMode cannot be changed from 'Knative' to 'Standard' (nothing was applied)",
  },
  {
    rule: 'a webhook that denies without a message says so',
    error: status(
      400,
      'admission webhook "policy.example.com" denied the request without explanation',
    ),
    failure: 'invalid',
    message:
      "LLMInferenceService models/qwen was refused by the cluster's admission webhook policy.example.com: without explanation (nothing was applied)",
  },
  {
    rule: 'a 403 says the cluster refused',
    error: status(403, 'forbidden'),
    failure: 'forbidden',
    message:
      'LLMInferenceService models/qwen: the cluster refused access: forbidden (nothing was applied)',
  },
  {
    rule: 'a missing namespace says to create it',
    error: status(404, 'namespaces "models" not found'),
    failure: 'not-found',
    message:
      'LLMInferenceService models/qwen: namespaces "models" not found; create the namespace first (nothing was applied)',
  },
  {
    rule: 'a connection error says the API is unavailable after the attempts',
    error: new Error('connect ECONNREFUSED 127.0.0.1:6443'),
    failure: 'unavailable',
    message: expect.stringMatching(
      /^LLMInferenceService models\/qwen: the Kubernetes API is unavailable after 4 attempt\(s\): .*ECONNREFUSED.* \(nothing was applied\)$/,
    ),
  },
];

describe('describeFailure', () => {
  it.each(rows)('$rule', ({ error, failure, message }) => {
    const r = result();
    expect(describeFailure(r, error, 'nothing was applied', 4)).toBe(failure);
    expect(r.action).toBe('failed');
    expect(r.message).toEqual(message);
    // Nothing but the documented fields is added to the result (it is stored in the history).
    expect(Object.keys(r).sort()).toEqual(
      expect.arrayContaining(['action', 'message']),
    );
    expect(r).not.toHaveProperty('failure');
  });
});
