import type {
  DeploymentHistoryItem,
  FleetResponse,
  FleetTarget,
  RenderedObject,
  TargetSync,
} from '@model-manager/plugin-model-manager-common';

/** Model qwen's LLMInferenceService as rendered for local/models, its metadata `metadata`. */
export function qwenObject(
  metadata: object = { name: 'qwen' },
): RenderedObject {
  return {
    apiVersion: 'serving.kserve.io/v1alpha2',
    kind: 'LLMInferenceService',
    name: 'qwen',
    namespace: 'models',
    applyPolicy: 'apply',
    source: 't',
    manifest: { kind: 'LLMInferenceService', metadata },
  };
}

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

/** The sync state of a target deployed with serverVersion 0.19.1 and an arg, whose image was then edited with kubectl. */
export function heldSync(): TargetSync {
  const hold = {
    version: '0.19.1',
    by: 'request' as const,
    revision: 4,
    actor: 'user:default/alice',
    at: '2026-12-01T10:00:00Z',
    catalogVersion: '0.24.0',
    text: 'held at 0.19.1 by request of 2026-12-01 by user:default/alice (revision 4); models.yaml default 0.24.0',
  };
  return {
    state: 'differs',
    runs: {
      version: '0.19.1',
      image: 'docker.io/vllm/vllm-openai-cpu:v0.19.1-hotfix',
      env: { VLLM_LOGGING_LEVEL: 'DEBUG' },
      args: ['--max-num-seqs=8'],
      revision: {
        revision: 4,
        action: 'deploy',
        actor: 'user:default/alice',
        at: '2026-12-01T10:00:00Z',
        overrides: {
          serverVersion: '0.19.1',
          args: ['--max-num-seqs=8'],
        },
      },
      manifests: [qwenObject({ name: 'qwen', labels: { applied: 'rev-4' } })],
    },
    newDeploy: {
      version: '0.24.0',
      image: 'docker.io/vllm/vllm-openai-cpu:v0.24.0',
      env: { VLLM_LOGGING_LEVEL: 'INFO' },
      args: [],
    },
    hold,
    differences: [
      {
        reason: 'drift',
        kind: 'LLMInferenceService',
        name: 'qwen',
        namespace: 'models',
        path: '.spec.template.containers[name=main].image',
        runs: 'docker.io/vllm/vllm-openai-cpu:v0.19.1-hotfix',
        applied: 'docker.io/vllm/vllm-openai-cpu:v0.19.1',
        text: 'changed on the cluster after revision 4 applied it (kubectl edit or another tool)',
      },
      {
        reason: 'request-pin',
        kind: 'LLMInferenceService',
        name: 'qwen',
        namespace: 'models',
        path: '.spec.template.containers[name=main].args',
        runs: ['--max-num-seqs=8'],
        newDeploy: [],
        text: 'asked for by the request of revision 4 by user:default/alice, 2026-12-01: serverVersion 0.19.1, arg --max-num-seqs=8',
      },
    ],
    summary: `${hold.text}; 2 differences from what a new deploy would apply (drift: 1, request-pin: 1)`,
  };
}

/** What the backend's `GET /fleet` answers for `query` over `fleet`: the targets of that runtime and cluster, the errors of that cluster. */
export function filterFleet(
  fleet: FleetResponse,
  query: { runtime?: string; cluster?: string } = {},
): FleetResponse {
  return {
    ...fleet,
    items: fleet.items.filter(
      t =>
        (!query.runtime || t.runtime === query.runtime) &&
        (!query.cluster || t.cluster === query.cluster),
    ),
    errors: fleet.errors.filter(
      e => !query.cluster || e.cluster === query.cluster,
    ),
  };
}

/** A fleet answer of `items`, read at FLEET's time, every cluster read. */
export function fleetOf(items: FleetTarget[]): FleetResponse {
  return { readAt: FLEET.readAt, errors: [], items };
}
