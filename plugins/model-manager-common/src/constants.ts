/** Label the Backstage Kubernetes plugin uses to find a component's objects. */
export const KUBERNETES_ID_LABEL = 'backstage.io/kubernetes-id';
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const MANAGED_BY_VALUE = 'model-manager';
export const NAME_LABEL = 'app.kubernetes.io/name';
export const RUNTIME_LABEL = 'model-manager.io/runtime';
export const CATEGORY_LABEL = 'model-manager.io/category';
export const SERVER_VERSION_LABEL = 'model-manager.io/server-version';
export const MODEL_ID_ANNOTATION = 'model-manager.io/model-id';
export const ROUTING_ANNOTATION = 'model-manager.io/routing';
export const DEVICE_ANNOTATION = 'model-manager.io/device';

/** Catalog entity annotations. */
export const MODEL_ANNOTATION = 'model-manager.io/model';
export const RUNTIME_ANNOTATION = 'model-manager.io/runtime';
export const CATEGORY_ANNOTATION = 'model-manager.io/category';

/** Field manager used for server-side apply. */
export const FIELD_MANAGER = 'model-manager';

/** The env var vLLM sizes its CPU KV cache from; set per category from kv_cache_gb. */
export const KV_CACHE_ENV = 'VLLM_CPU_KVCACHE_SPACE';

/**
 * Flags that only work for mixture-of-experts models; on a dense model vLLM crashes at start.
 * A model must say `moe: true` to get them from any layer.
 */
export const MOE_ONLY_FLAGS = [
  '--enable-expert-parallel',
  '--enable-eplb',
  '--eplb-config',
  '--num-redundant-experts',
  '--expert-placement-strategy',
] as const;

/** Repos already published as OpenVINO IR: `ovms --pull` refuses `--weight-format` for them. */
export const OPENVINO_IR_PREFIX = 'OpenVINO/';

/** Template files under runtimes/templates/, by what they render. */
export const TEMPLATE_FILES = {
  LLMInferenceService: 'llm-inference-service.yaml',
  InferenceService: 'inference-service.yaml',
  downloadJob: 'weights-download-job.yaml',
} as const;

/** ovms --pull --task per category. */
export const OVMS_TASKS: Record<string, string> = {
  llm: 'text_generation',
  vlm: 'text_generation',
  embed: 'embeddings',
  rerank: 'rerank',
};

/** Where request overrides (CLI flags, deploy request bodies) are said to come from. */
export const REQUEST_FILE = '<request>';
