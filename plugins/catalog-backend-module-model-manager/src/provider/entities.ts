import {
  ANNOTATION_LOCATION,
  ANNOTATION_ORIGIN_LOCATION,
  makeValidator,
  type ApiEntity,
  type ComponentEntity,
  type Entity,
  type ResourceEntity,
} from '@backstage/catalog-model';
import {
  CATEGORY_ANNOTATION,
  KUBERNETES_ID_LABEL,
  MODEL_ANNOTATION,
  MODEL_ID_ANNOTATION,
  RUNTIME_ANNOTATION,
  resolveServer,
  type Catalog,
  type CatalogModel,
  type CatalogRuntime,
} from '@model-manager/plugin-model-manager-common';
import {
  API_ENTITY_SUFFIX,
  DEFAULT_VERSION_ANNOTATION,
  KIND_ANNOTATION,
  KUBERNETES_LABEL_SELECTOR_ANNOTATION,
  MODEL_COMPONENT_TYPE,
  RUNTIME_ENTITY_SUFFIX,
  RUNTIME_RESOURCE_TYPE,
  SERVER_VERSION_ANNOTATION,
  VERSIONS_ANNOTATION,
} from './constants';
import {
  engineApi,
  gatewayRewrite,
  openAiApiDefinition,
  openAiPaths,
} from './openAiApiDefinition';
import type { BuiltEntities, EntityOptions, ModelDeployments } from './types';

const validator = makeValidator();

/** Resource name of a runtime: `<runtime>-runtime`. */
export function runtimeEntityName(runtime: string): string {
  return `${runtime}${RUNTIME_ENTITY_SUFFIX}`;
}

/** API name of a model: `<model>-openai-api`. */
export function apiEntityName(model: string): string {
  return `${model}${API_ENTITY_SUFFIX}`;
}

/**
 * A catalog tag from free text: lowercase, runs of anything but `a-z 0-9 + #` become one `-`,
 * no leading/trailing `-`, at most 63 characters. Undefined when nothing is left.
 */
export function toTag(value: string): string | undefined {
  const tag = value
    .toLowerCase()
    .replace(/[^a-z0-9+#]+/g, '-')
    .slice(0, 63)
    .replace(/^-+|-+$/g, '');
  return validator.isValidTag(tag) ? tag : undefined;
}

function tags(values: string[]): string[] {
  return [
    ...new Set(values.map(toTag).filter((t): t is string => t !== undefined)),
  ];
}

/**
 * The catalog entities of a model catalog. Pure: the same catalog and options give the same
 * entities, in models.yaml order.
 *
 * - one `Resource` (`spec.type: model-runtime`) per runtime, named `<runtime>-runtime`;
 * - one `Component` (`spec.type: model-server`) per model, named after the model, depending on
 *   its runtime's Resource;
 * - with `apiEntities`, one `API` (`spec.type: openapi`) per model, `<model>-openai-api`,
 *   provided by the model's Component (only for categories with known OpenAI-compatible paths);
 *   its servers are where the model is deployed (`deployments`: KServe's status.url) and the
 *   clusters' gateways, as its routing says clients call it.
 *
 * A runtime whose Resource name is not a valid entity name gets no Resource (its models then have
 * no `dependsOn`), and a model whose API name would be too long gets no API; each is reported in
 * `warnings`.
 *
 * `skip(model)`: true leaves that model's entities (and warnings) out, for a caller that already
 * has them from an earlier build with the same inputs (the provider after a one-model change).
 */
export function buildEntities(
  catalog: Catalog,
  options: EntityOptions,
  deployments: ModelDeployments = {},
  skip: (model: CatalogModel) => boolean = () => false,
): BuiltEntities {
  const location = `file:${options.modelsFile}`;
  const managedBy = {
    [ANNOTATION_LOCATION]: location,
    [ANNOTATION_ORIGIN_LOCATION]: location,
  };
  const warnings: string[] = [];
  const entities: Entity[] = [];

  const runtimeRefs = new Map<string, string>();
  for (const runtime of Object.values(catalog.runtimes)) {
    const name = runtimeEntityName(runtime.name);
    if (!validator.isValidEntityName(name)) {
      warnings.push(
        `model-manager: runtime '${runtime.name}' in ${catalog.modelsFile} gets no catalog entity: '${name}' is not a valid entity name (at most 63 characters: letters, digits, -, _ and .; starting and ending with a letter or digit). Rename the runtime`,
      );
      continue;
    }
    runtimeRefs.set(runtime.name, `resource:default/${name}`);
    entities.push(runtimeEntity(runtime, name, managedBy, options));
  }

  for (const model of Object.values(catalog.models)) {
    if (skip(model)) continue;
    const runtime = catalog.runtimes[model.config.server.runtime];
    const serverVersion = runtime.versioned
      ? resolveServer(catalog, model.name, {}, { locate: false }).version?.value
      : undefined;
    const title = model.config.display_name ?? model.name;
    let apiName: string | undefined;
    if (options.apiEntities) {
      const definition = openAiApiDefinition({
        name: model.name,
        title,
        modelId: model.config.model_id,
        category: model.config.category,
        runtime: runtime.name,
        api: engineApi(runtime),
        servedModelName: runtime.config.served_model_name,
        serverVersion,
        gateways: options.gateways,
        routing: runtime.config.routing,
        deployments: deployments[model.name],
      });
      const name = apiEntityName(model.name);
      if (definition && !validator.isValidEntityName(name)) {
        warnings.push(
          `model-manager: model '${model.name}' in ${
            catalog.modelsFile
          } gets no API entity: '${name}' is longer than the 63 characters an entity name may have. Shorten the model name to at most ${
            63 - API_ENTITY_SUFFIX.length
          } characters`,
        );
      } else if (definition) {
        apiName = name;
        entities.push(
          apiEntity(model, runtime, {
            name,
            title,
            definition,
            managedBy,
            options,
          }),
        );
      }
    }
    entities.push(
      modelEntity(model, runtime, {
        title,
        serverVersion,
        runtimeRef: runtimeRefs.get(runtime.name),
        apiName,
        managedBy,
        options,
      }),
    );
  }
  return { entities, warnings };
}

function modelEntity(
  model: CatalogModel,
  runtime: CatalogRuntime,
  ctx: {
    title: string;
    serverVersion?: string;
    runtimeRef?: string;
    apiName?: string;
    managedBy: Record<string, string>;
    options: EntityOptions;
  },
): ComponentEntity {
  const m = model.config;
  const annotations: Record<string, string> = {
    ...ctx.managedBy,
    [KUBERNETES_ID_LABEL]: model.name,
    // The stock Kubernetes tab selects the model's objects AND its pods with this one label:
    // every object model-manager renders (and the download Job's pod template) carries
    // app.kubernetes.io/name=<model>; KServe gives LLMInferenceService pods
    // app.kubernetes.io/name=<llmisvc name> itself (kserve/kserve pkg/controller/v1alpha1/llmisvc
    // workload_single_node.go, where the LLMInferenceService's own labels do not reach the pods,
    // so backstage.io/kubernetes-id alone showed "0 pods"), and InferenceService predictor pods
    // get the InferenceService's labels (pkg/controller/v1beta1/inferenceservice/components/
    // predictor.go: `Labels: utils.Union(sRuntimeLabels, isvc.Labels, predictorLabels, ...)`).
    [KUBERNETES_LABEL_SELECTOR_ANNOTATION]: `app.kubernetes.io/name=${model.name}`,
    [MODEL_ANNOTATION]: model.name,
    [RUNTIME_ANNOTATION]: runtime.name,
    [CATEGORY_ANNOTATION]: m.category,
    [MODEL_ID_ANNOTATION]: m.model_id,
  };
  if (ctx.serverVersion)
    annotations[SERVER_VERSION_ANNOTATION] = ctx.serverVersion;
  const on = ctx.serverVersion
    ? `${runtime.name} ${ctx.serverVersion}`
    : runtime.name;
  const entity: ComponentEntity = {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: {
      name: model.name,
      title: ctx.title,
      description:
        m.description?.trim() || `${m.model_id} on ${on} (${m.category})`,
      tags: tags([...(m.tags ?? []), runtime.name, m.category]),
      links: [
        {
          url: `https://huggingface.co/${m.model_id}`,
          title: 'Hugging Face',
          type: 'huggingface',
        },
      ],
      annotations,
    },
    spec: {
      type: MODEL_COMPONENT_TYPE,
      lifecycle: m.lifecycle ?? ctx.options.defaultLifecycle,
      owner: m.owner ?? ctx.options.defaultOwner,
    },
  };
  const system = m.system ?? ctx.options.defaultSystem;
  if (system) entity.spec.system = system;
  if (ctx.runtimeRef) entity.spec.dependsOn = [ctx.runtimeRef];
  if (ctx.apiName) entity.spec.providesApis = [`api:default/${ctx.apiName}`];
  return entity;
}

function runtimeEntity(
  runtime: CatalogRuntime,
  name: string,
  managedBy: Record<string, string>,
  options: EntityOptions,
): ResourceEntity & { spec: { lifecycle: string } } {
  const r = runtime.config;
  const annotations: Record<string, string> = {
    ...managedBy,
    [RUNTIME_ANNOTATION]: runtime.name,
    [KIND_ANNOTATION]: r.kind,
  };
  let description: string;
  if (runtime.versioned) {
    const versions = Object.keys(r.versions ?? {});
    annotations[VERSIONS_ANNOTATION] = versions.join(',');
    if (r.default_version)
      annotations[DEFAULT_VERSION_ANNOTATION] = r.default_version;
    const listed = versions
      .map(v => (v === r.default_version ? `${v} (default)` : v))
      .join(', ');
    description = `Model runtime ${runtime.name}: ${r.kind}, versions ${listed}.`;
  } else {
    description = `Model runtime ${runtime.name}: ${
      r.kind
    }, flat (no versions)${r.image ? `, image ${r.image}` : ''}.`;
  }
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Resource',
    metadata: {
      name,
      title: runtime.name,
      description,
      tags: tags([runtime.name, 'model-runtime']),
      annotations,
    },
    // Resources have no lifecycle in the kind's schema, but the catalog keeps (and shows) it.
    spec: {
      type: RUNTIME_RESOURCE_TYPE,
      owner: options.defaultOwner,
      lifecycle: options.defaultLifecycle,
      ...(options.defaultSystem ? { system: options.defaultSystem } : {}),
    },
  };
}

function apiEntity(
  model: CatalogModel,
  runtime: CatalogRuntime,
  ctx: {
    name: string;
    title: string;
    definition: string;
    managedBy: Record<string, string>;
    options: EntityOptions;
  },
): ApiEntity {
  const m = model.config;
  const api = engineApi(runtime);
  const paths = openAiPaths(m.category, api).join(', ');
  const prefix = gatewayRewrite(api);
  const rewrite = prefix
    ? ` The gateway rewrites /v1/ to ${api.engine}'s ${prefix}/; clients always use /v1/.`
    : '';
  const entity: ApiEntity = {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'API',
    metadata: {
      name: ctx.name,
      title: `${ctx.title} API`,
      description: `OpenAI-compatible API of ${model.name} (${m.model_id}, ${m.category}): POST ${paths}.${rewrite}`,
      tags: tags(['openai', m.category]),
      annotations: {
        ...ctx.managedBy,
        [MODEL_ANNOTATION]: model.name,
        [RUNTIME_ANNOTATION]: runtime.name,
        [CATEGORY_ANNOTATION]: m.category,
      },
    },
    spec: {
      type: 'openapi',
      lifecycle: m.lifecycle ?? ctx.options.defaultLifecycle,
      owner: m.owner ?? ctx.options.defaultOwner,
      definition: ctx.definition,
    },
  };
  const system = m.system ?? ctx.options.defaultSystem;
  if (system) entity.spec.system = system;
  return entity;
}
