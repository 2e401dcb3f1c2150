import type { RuntimeSummary } from '@model-manager/plugin-model-manager-common';
import type { ModelManagerApi } from '../api';
import { FLEET, historyRow, qwenObject } from './fleet';
import { MODELS, modelList } from './models';

export const origin = (layer: string, path: string) => ({
  layer,
  file: 'models.yaml',
  path,
  line: 3,
  col: 5,
});

/** A method of the fake API that fails with `message`, as a call the backend refuses or cannot answer. */
export const failsWith = (message: string) => async (): Promise<never> => {
  throw new Error(message);
};

export function fakeApi(
  overrides: Partial<ModelManagerApi> = {},
): ModelManagerApi {
  return {
    listModels: async () => MODELS,
    queryModels: jest.fn(modelList(MODELS)),
    getModel: async () => ({} as any),
    listRuntimes: async () => [],
    listClusters: async () => [
      {
        name: 'local',
        url: 'https://127.0.0.1:6443',
        source: 'config' as const,
        namespaces: ['default', 'models'],
      },
      {
        name: 'edge',
        url: 'https://edge.example.com',
        source: 'config' as const,
      },
    ],
    getRuntime: async (): Promise<RuntimeSummary> => ({
      name: 'vllm',
      kind: 'LLMInferenceService',
      versioned: true,
      defaultVersion: '0.24.0',
      versions: [
        {
          version: '0.24.0',
          image: 'docker.io/vllm/vllm-openai-cpu:v0.24.0',
          default: true,
          env: {},
          args: [],
        },
        {
          version: '0.19.1',
          image: 'docker.io/vllm/vllm-openai-cpu:v0.19.1',
          default: false,
          env: { VLLM_USE_V1: '1' },
          args: [],
        },
      ],
      env: { VLLM_LOGGING_LEVEL: 'INFO' },
      categories: [
        {
          name: 'llm',
          defaults: { cpu: 8, memory: '16Gi', kv_cache_gb: 8 },
          env: {},
          args: [],
        },
      ],
      plumbing: {
        routing: {
          value: 'epp',
          source: 'runtimes/vllm/values.yaml:5:1 routing',
        },
      },
      models: ['qwen'],
    }),
    resolve: async () => ({
      server: {
        model: 'qwen',
        modelId: 'Qwen/Qwen2.5-7B-Instruct',
        category: 'llm',
        runtime: 'vllm',
        kind: 'LLMInferenceService',
        version: {
          value: '0.19.1',
          origin: origin('model', 'models.qwen.server.server_version'),
          overrode: [],
        },
        plumbing: {
          served_model_name: {
            value: 'model_id',
            origin: origin('plumbing', 'served_model_name'),
            overrode: [],
          },
        },
      } as any,
      operations: ['chat', 'completions'],
      explain: [
        {
          key: 'version',
          value: '0.19.1',
          layer: 'model',
          source: 'models.yaml:30:7 models.qwen.server.server_version',
          overrode: [
            {
              value: '0.24.0',
              layer: 'runtime-default',
              source: 'models.yaml:109:5 runtimes.vllm.default_version',
            },
          ],
        },
        {
          key: 'env.VLLM_CPU_KVCACHE_SPACE',
          value: '8',
          layer: 'category',
          source:
            'models.yaml:124:54 runtimes.vllm.categories.llm.defaults.kv_cache_gb',
          overrode: [],
        },
      ],
    }),
    render: async () => [qwenObject()],
    history: async () => [historyRow()],
    status: async () => [],
    catalogStatus: async () => ({
      ok: true,
      at: '2026-11-30T10:00:00Z',
      models: 1,
      runtimes: 1,
    }),
    diff: async () => ({
      model: 'qwen',
      cluster: 'local',
      namespace: 'models',
      inSync: false,
      objects: [
        {
          kind: 'LLMInferenceService',
          name: 'qwen',
          applyPolicy: 'apply',
          exists: true,
          changes: [
            {
              path: '.spec.template.containers[name=main].image',
              rendered: 'vllm:0.24.0',
              live: 'vllm:0.19.1',
            },
          ],
        },
      ],
    }),
    undeploy: jest.fn(
      async (
        model: string,
        target: { cluster: string; namespace: string },
      ) => ({
        ok: true,
        revision: 5,
        action: 'undeploy' as const,
        model,
        ...target,
        objects: [],
      }),
    ),
    rollback: jest.fn(
      async (
        model: string,
        _revision: number,
        options?: { dryRun?: boolean },
      ) => ({
        ok: true,
        ...(options?.dryRun ? {} : { revision: 4 }),
        action: options?.dryRun ? ('dry-run' as const) : ('rollback' as const),
        model,
        cluster: 'local',
        namespace: 'models',
        objects: [
          {
            apiVersion: 'serving.kserve.io/v1alpha2',
            kind: 'LLMInferenceService',
            name: model,
            namespace: 'models',
            action: 'configured' as const,
            changes: [
              {
                path: '.spec.template.containers[name=main].image',
                live: 'vllm:0.24.0',
                rendered: 'vllm:0.19.1',
              },
            ],
          },
        ],
      }),
    ),
    revisionDiff: async (model: string, revision: number) => ({
      model,
      revision,
      cluster: 'local',
      namespace: 'models',
      againstPrevious: { objects: [] },
      againstLive: { objects: [] },
    }),
    fleet: async () => FLEET,
    modelFleet: async (name: string) => ({
      ...FLEET,
      items: FLEET.items.filter(t => t.model === name),
    }),
    rolloutPlan: async ({ runtime }) => ({
      runtime,
      moves: [],
      stays: [],
      errors: [],
    }),
    ...overrides,
  };
}
