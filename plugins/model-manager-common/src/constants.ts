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

/** The largest KV cache accepted, in GiB (4 TiB: more than any CPU node we schedule on). */
export const MAX_KV_CACHE_GB = 4096;

export type { EngineProfile } from './profile/types';

/**
 * The objects every model's name becomes, whatever its engine; an engine's profile adds its own
 * (`name_suffixes`, e.g. KServe's `<name>-predictor`). Every name must be a DNS-1035 label (a
 * letter first, at most 63 characters: Services and label values) and match KServe's
 * InferenceService pattern.
 */
export const MODEL_NAME_OBJECTS: ReadonlyArray<{
  object: string;
  suffix: string;
}> = [
  {
    object: 'the InferenceService / LLMInferenceService and its labels',
    suffix: '',
  },
];

/**
 * KServe's webhook pattern for InferenceService names (https://github.com/kserve/kserve
 * pkg/apis/serving/v1beta1/inference_service_validation.go, IsvcNameFmt).
 */
export const KSERVE_NAME_PATTERN = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
/** A DNS-1035 label's length limit (Kubernetes Service names, label values). */
export const MAX_OBJECT_NAME_LENGTH = 63;

/** Where request overrides (CLI flags, deploy request bodies) are said to come from. */
export const REQUEST_FILE = '<request>';
