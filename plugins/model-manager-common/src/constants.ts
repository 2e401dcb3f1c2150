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

/** The largest KV cache accepted, in GiB (4 TiB: more than any CPU node we schedule on). */
export const MAX_KV_CACHE_GB = 4096;

/**
 * What differs between serving engines, keyed by the runtime's `kind`. The resolver reads these
 * instead of testing the kind; a later "engine profile" can move each entry into
 * runtimes/<name>/values.yaml unchanged.
 */
export interface EngineProfile {
  /** Human name used in messages. */
  engine: string;
  /** The env var the engine sizes its KV cache from (whole GiB); absent: kv_cache_gb does not apply. */
  kvCacheEnv?: string;
  /**
   * The largest share of the pod memory limit the KV cache may take; the rest is left for the
   * weights, activations and the runtime itself.
   */
  kvCacheMaxShareOfMemory?: number;
  /** Flags that crash dense models (canonical spelling). */
  moeOnlyFlags: readonly string[];
  /** Short option -> its long flag, as the engine's argument parser declares them. */
  flagAliases: Readonly<Record<string, string>>;
  /** The engine reads `_` and `-` alike in a long flag's name (up to the first `.`). */
  flagUnderscoreIsDash: boolean;
  /** Model repos already in the engine's format (matched case-insensitively); weight_format is refused for them. */
  irRepoPrefix?: string;
  /** The engine converts weights at download (so weight_format applies). */
  convertsWeights: boolean;
  /**
   * Plumbing keys the engine's objects use; any other plumbing key set for it is reported.
   * `image` applies to flat runtimes only (a versioned runtime takes each version's image).
   */
  plumbingKeys: readonly string[];
}

export const ENGINE_PROFILES: Readonly<
  Record<'LLMInferenceService' | 'InferenceService', EngineProfile>
> = {
  LLMInferenceService: {
    engine: 'vLLM',
    kvCacheEnv: KV_CACHE_ENV,
    // Half the limit stays free: bf16 weights of a model that fits the category's memory plus
    // vLLM's Python runtime and activations (a 7B model is ~15 GiB; llm defaults are 16Gi + 8).
    kvCacheMaxShareOfMemory: 0.5,
    moeOnlyFlags: MOE_ONLY_FLAGS,
    // vLLM's EngineArgs.add_cli_args (https://github.com/vllm-project/vllm, vllm/engine/arg_utils.py):
    // `parallel_group.add_argument("--tensor-parallel-size", "-tp", ...)` and the like. Read from
    // the stored arg_utils.py at commit 99d7eb5 (-pp -tp -dcp -dp -dpn -dpr -dpl -dpa -dpp -dpb
    // -q -O). -ep (--enable-expert-parallel) is not in that older file; tools that model newer
    // vLLM CLIs list it as vLLM's alias (e.g. parallelism flag tables mapping vllm to
    // ("--enable-expert-parallel", "-ep")), and keeping it errs on the safe side: a dense model is
    // refused rather than crashed. Re-check against arg_utils.py on a version bump.
    flagAliases: {
      '-ep': '--enable-expert-parallel',
      '-tp': '--tensor-parallel-size',
      '-pp': '--pipeline-parallel-size',
      '-dcp': '--decode-context-parallel-size',
      '-dp': '--data-parallel-size',
      '-dpn': '--data-parallel-rank',
      '-dpr': '--data-parallel-start-rank',
      '-dpl': '--data-parallel-size-local',
      '-dpa': '--data-parallel-address',
      '-dpp': '--data-parallel-rpc-port',
      '-dpb': '--data-parallel-backend',
      '-q': '--quantization',
      '-O': '--compilation-config',
    },
    // vLLM's FlexibleArgumentParser.parse_args (vllm/utils/argparse_utils.py, formerly
    // vllm/utils/__init__.py): `pattern = re.compile(r"(?<=--)[^\.]*")` replaces `_` with `-`.
    flagUnderscoreIsDash: true,
    convertsWeights: false,
    // served_model_name: the `model` clients send (vLLM's --served-model-name is spec.model.name).
    plumbingKeys: ['device', 'kind', 'routing', 'image', 'served_model_name'],
  },
  InferenceService: {
    engine: 'OpenVINO Model Server',
    moeOnlyFlags: [],
    flagAliases: {},
    flagUnderscoreIsDash: false,
    // OVMS lower-cases the source model before testing the prefix: isOptimumCliDownload in
    // https://github.com/openvinotoolkit/model_server src/capi_frontend/server_settings.cpp:
    // `!startsWith(toLower(sourceModel), "openvino/")`.
    irRepoPrefix: OPENVINO_IR_PREFIX,
    convertsWeights: true,
    plumbingKeys: [
      'device',
      'kind',
      'routing',
      'image',
      'model_downloader_image',
      'format',
      'runtime_name',
      'serving_runtime_manifest',
      'served_model_name',
      'api_prefix',
      'weights_pvc',
      'weights_storage',
      'weights_storage_class',
      'weights_access_mode',
      'gateway_name',
      'gateway_namespace',
    ],
  },
};

/**
 * The objects a model's name becomes, and the name each gets. Every name must be a DNS-1035
 * label (a letter first, at most 63 characters: Services and label values) and match KServe's
 * InferenceService pattern. Extend this list when a new object is named after the model.
 * `kinds`: only for runtimes of these kinds (all when absent).
 */
export const MODEL_NAME_OBJECTS: ReadonlyArray<{
  object: string;
  suffix: string;
  kinds?: ReadonlyArray<'LLMInferenceService' | 'InferenceService'>;
}> = [
  {
    object: 'the InferenceService / LLMInferenceService and its labels',
    suffix: '',
  },
  {
    object: 'the weights download Job',
    suffix: '-download',
    kinds: ['InferenceService'],
  },
  // KServe names the predictor's Service and Deployment `<name>-predictor`:
  // https://github.com/kserve/kserve pkg/constants/constants.go PredictorServiceName.
  {
    object: "KServe's predictor Service and Deployment",
    suffix: '-predictor',
    kinds: ['InferenceService'],
  },
];

/**
 * KServe's webhook pattern for InferenceService names (https://github.com/kserve/kserve
 * pkg/apis/serving/v1beta1/inference_service_validation.go, IsvcNameFmt).
 */
export const KSERVE_NAME_PATTERN = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
/** A DNS-1035 label's length limit (Kubernetes Service names, label values). */
export const MAX_OBJECT_NAME_LENGTH = 63;

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
