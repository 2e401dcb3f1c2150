import type { ModelListQuery, ModelListResponse, ModelSummary } from '../api';

/** A dense LLM model `name` (`org/<name>`) on vLLM's default version; override what a test is about. */
function vllmModel(
  name: string,
  overrides: Partial<ModelSummary> = {},
): ModelSummary {
  return {
    name,
    modelId: `org/${name}`,
    category: 'llm',
    runtime: 'vllm',
    kind: 'LLMInferenceService',
    version: '0.24.0',
    versionSource: 'runtime-default',
    image: 'img',
    moe: false,
    owner: 'group:default/ml',
    tags: [],
    ...overrides,
  };
}

/** The two models of the shared fake API. */
export const MODELS: ModelSummary[] = [
  vllmModel('qwen', { modelId: 'Qwen/Qwen2.5-7B-Instruct' }),
  {
    name: 'bge-ov',
    modelId: 'OpenVINO/bge',
    category: 'embed',
    runtime: 'openvino',
    kind: 'InferenceService',
    image: 'img',
    moe: false,
    owner: 'group:default/search',
    tags: [],
  },
];

/** `n` vLLM models, `model-00000` ..., spread over 50 owners. */
export function generateModels(n: number): ModelSummary[] {
  return Array.from({ length: n }, (_, i) =>
    vllmModel(`model-${String(i).padStart(5, '0')}`, {
      owner: `group:default/team-${i % 50}`,
    }),
  );
}

const distinct = (values: Array<string | undefined>) =>
  [...new Set(values.filter((v): v is string => !!v))].sort();

/** What the backend's `GET /models` does, over `models`, for fakes of `queryModels`. */
export function modelList(
  models: ModelSummary[],
): (query: ModelListQuery) => Promise<ModelListResponse> {
  return async query => {
    const q = query.q?.toLowerCase();
    const sort = query.sort ?? 'name';
    const field = sort.replace(/^-/, '') as keyof ModelSummary;
    const rows = models
      .filter(
        m =>
          (['runtime', 'version', 'category', 'owner'] as const).every(
            f => query[f] === undefined || m[f] === query[f],
          ) &&
          (!q ||
            `${m.name}\n${m.modelId}\n${m.displayName ?? ''}`
              .toLowerCase()
              .includes(q)),
      )
      .sort((a, b) =>
        String(a[field] ?? '').localeCompare(String(b[field] ?? '')),
      );
    if (sort.startsWith('-')) rows.reverse();
    const offset = query.offset ?? 0;
    return {
      items: rows.slice(offset, query.limit ? offset + query.limit : undefined),
      total: rows.length,
      offset,
      ...(query.limit ? { limit: query.limit } : {}),
      facets: {
        runtimes: distinct(models.map(m => m.runtime)),
        versions: distinct(models.map(m => m.version)),
        categories: distinct(models.map(m => m.category)),
        owners: distinct(models.map(m => m.owner)),
      },
    };
  };
}

/** What the form fields read of each runtime (`getRuntime`), by name: vllm with 0.24.0 (the default) and 0.19.1, and flat openvino. */
export const FIELD_RUNTIMES: Record<string, any> = {
  vllm: {
    name: 'vllm',
    versioned: true,
    defaultVersion: '0.24.0',
    versions: [
      { version: '0.24.0', image: 'vllm:0.24.0', default: true },
      { version: '0.19.1', image: 'vllm:0.19.1', default: false },
    ],
  },
  openvino: { name: 'openvino', versioned: false, versions: [] },
};
