/**
 * Names used on the entities this module emits. The model, runtime and category annotations and
 * the model-id / server-version keys come from `@model-manager/plugin-model-manager-common`; the
 * ones below only exist on catalog entities.
 */

/** The provider name; entities emitted by it are tied to it in the catalog. */
export const PROVIDER_NAME = 'model-manager';

/** The location key of every emitted entity (another provider cannot claim them). */
export const LOCATION_KEY = 'model-manager-provider';

/** The Kubernetes plugin selects a model's objects by this label selector. */
export const KUBERNETES_LABEL_SELECTOR_ANNOTATION =
  'backstage.io/kubernetes-label-selector';

/** The server version a model runs with by default (versioned runtimes only). */
export const SERVER_VERSION_ANNOTATION = 'model-manager.io/server-version';

/** A runtime Resource's `default_version` (versioned runtimes only). */
export const DEFAULT_VERSION_ANNOTATION = 'model-manager.io/default-version';

/** A runtime Resource's version keys, comma-separated, in models.yaml order. */
export const VERSIONS_ANNOTATION = 'model-manager.io/versions';

/** The KServe object kind a runtime renders: `LLMInferenceService` or `InferenceService`. */
export const KIND_ANNOTATION = 'model-manager.io/kind';

/** `spec.type` of model Components (Red Hat Developer Hub's model catalog uses the same). */
export const MODEL_COMPONENT_TYPE = 'model-server';

/** `spec.type` of runtime Resources. */
export const RUNTIME_RESOURCE_TYPE = 'model-runtime';

/** Defaults of `catalog.providers.modelManager.*`. */
export const DEFAULT_OWNER = 'group:default/ml-platform';
export const DEFAULT_LIFECYCLE = 'production';

/** Runtime `<name>` becomes Resource `<name>-runtime`; model `<name>` gets API `<name>-openai-api`. */
export const RUNTIME_ENTITY_SUFFIX = '-runtime';
export const API_ENTITY_SUFFIX = '-openai-api';
