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
  weightsClaim: 'weights-pvc.yaml',
  gatewayBackend: 'gateway-backend.yaml',
  aiServiceBackend: 'ai-service-backend.yaml',
  aiGatewayRoute: 'ai-gateway-route.yaml',
} as const;
export type TemplateKey = keyof typeof TEMPLATE_FILES;

/**
 * The route objects each plumbing `routing` renders beside the model's object, in apply order
 * (what a route points at first). `epp` renders none: the LLMInferenceService's own `router`
 * block makes KServe create the scheduler (EPP + InferencePool), the HTTPRoute and the Gateway.
 */
export const ROUTING_TEMPLATES: Record<string, readonly TemplateKey[]> = {
  aigateway: ['gatewayBackend', 'aiServiceBackend', 'aiGatewayRoute'],
  epp: [],
};

/**
 * Defaults of plumbing keys a runtime's values.yaml may leave out. `weights_storage_class` has
 * none: an absent storage class means the cluster's default StorageClass.
 */
export const PLUMBING_DEFAULTS = {
  served_model_name: 'model_id',
  weights_pvc: 'model-manager-weights',
  weights_storage: '100Gi',
  weights_access_mode: 'ReadWriteOnce',
  // Envoy AI Gateway's basic example (examples/basic/basic.yaml).
  gateway_name: 'envoy-ai-gateway-basic',
  gateway_namespace: 'default',
} as const;

/** Where the download Job mounts the weights claim; `ovms --pull --model_repository_path` is below it. */
export const WEIGHTS_MOUNT_PATH = '/models';

/** ovms --pull --task per category. */
export const OVMS_TASKS: Record<string, string> = {
  llm: 'text_generation',
  vlm: 'text_generation',
  embed: 'embeddings',
  rerank: 'rerank',
};

/** Where request overrides (CLI flags, deploy request bodies) are said to come from. */
export const REQUEST_FILE = '<request>';
