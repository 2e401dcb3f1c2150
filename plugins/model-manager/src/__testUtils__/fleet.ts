import type {
  DeploymentHistoryItem,
  FleetResponse,
  FleetTarget,
} from '@model-manager/plugin-model-manager-common';

/** A Ready, in-sync target; override what a test is about. */
export function target(overrides: Partial<FleetTarget> = {}): FleetTarget {
  return {
    model: 'qwen',
    cluster: 'local',
    namespace: 'models',
    runtime: 'vllm',
    liveVersion: '0.24.0',
    liveImage: 'docker.io/vllm/vllm-openai-cpu:v0.24.0',
    resolvedVersion: '0.24.0',
    resolvedImage: 'docker.io/vllm/vllm-openai-cpu:v0.24.0',
    state: 'Ready',
    drifted: false,
    drift: [],
    outdated: false,
    outdatedChanges: [],
    revision: {
      revision: 2,
      action: 'deploy',
      actor: 'user:default/alice',
      at: '2026-11-30T10:00:00Z',
      overrides: {},
    },
    ...overrides,
  };
}

/** The fleet the page tests share: three targets of two models on two clusters, one of each kind of trouble. */
export const FLEET: FleetResponse = {
  readAt: '2026-12-01T10:00:00Z',
  errors: [],
  items: [
    target(),
    target({
      cluster: 'prod',
      namespace: 'ml',
      liveVersion: '0.19.1',
      liveImage: 'docker.io/vllm/vllm-openai-cpu:v0.19.1',
      state: 'NotReady',
      reason:
        'WorkloadsReady is False: the vLLM pods are not ready (ImagePullBackOff).',
      outdated: true,
      outdatedChanges: [
        {
          kind: 'LLMInferenceService',
          name: 'qwen',
          change: 'changed',
          fields: [
            {
              path: '.spec.template.containers[name=main].image',
              live: 'vllm:0.19.1',
              rendered: 'vllm:0.24.0',
            },
          ],
        },
      ],
      revision: {
        revision: 1,
        action: 'rollout',
        actor: 'user:default/bob',
        at: '2026-11-29T09:00:00Z',
        overrides: {},
      },
    }),
    target({
      model: 'bge-ov',
      runtime: 'openvino',
      liveVersion: undefined,
      liveImage: 'openvino/model_server:2025.3',
      resolvedVersion: undefined,
      resolvedImage: 'openvino/model_server:2025.3',
      drifted: true,
      drift: [
        {
          kind: 'InferenceService',
          name: 'bge-ov',
          change: 'changed',
          fields: [
            { path: '.spec.predictor.minReplicas', rendered: 1, live: 3 },
          ],
        },
      ],
      revision: undefined,
    }),
  ],
};

/** A history row; override what a test is about. */
export function historyRow(
  overrides: Partial<DeploymentHistoryItem> = {},
): DeploymentHistoryItem {
  return {
    id: 10,
    revision: 3,
    model: 'qwen',
    cluster: 'local',
    namespace: 'models',
    action: 'deploy',
    outcome: 'succeeded',
    actor: 'user:default/alice',
    serverVersion: '0.19.1',
    overrides: {},
    manifests: [],
    results: [],
    createdAt: '2026-11-30T10:00:00Z',
    ...overrides,
  };
}
