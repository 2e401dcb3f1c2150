import { InputError } from '@backstage/errors';
import type { Catalog } from '../catalog/types';
import { namespaceProblem } from '../names/kubernetesNames';
import {
  CATEGORY_LABEL,
  DEVICE_ANNOTATION,
  KUBERNETES_ID_LABEL,
  MANAGED_BY_LABEL,
  MANAGED_BY_VALUE,
  MODEL_ID_ANNOTATION,
  NAME_LABEL,
  PLUMBING_DEFAULTS,
  ROUTING_ANNOTATION,
  RUNTIME_LABEL,
  SERVER_VERSION_LABEL,
} from '../constants';
import type { EngineProfile } from '../profile/types';
import type { ResolvedServer } from '../resolver/types';
import { copy, fillTemplate } from './fillTemplate';
import {
  renderDownloadEnv,
  renderDownloadInitContainers,
  renderEnv,
  renderPullSecrets,
} from './renderEnv';
import type { RenderedObject, TemplateContext, TemplateValue } from './types';

/** The placeholders templates may use; anything else is an error at load time. */
export const TEMPLATE_PLACEHOLDERS = [
  'model.name',
  'model.model_id',
  'model.category',
  'namespace',
  'labels',
  'annotations',
  'image',
  'args',
  'env',
  'cpu',
  'memory',
  'format',
  'runtime_name',
  'model_downloader_image',
  'device',
  'routing',
  'pull_args',
  'served_model_name',
  'api_prefix',
  'weights_pvc',
  'weights_path',
  'weights_storage',
  'weights_storage_class',
  'weights_access_mode',
  'shared_labels',
  'gateway_name',
  'gateway_namespace',
  'image_pull_secrets',
  'download_env',
  'download_init_containers',
] as const;

export interface RenderOptions {
  /** Namespace of the namespaced objects. */
  namespace: string;
}

/** The labels every object of a model carries; the Kubernetes tab finds objects by these. */
export function modelLabels(server: ResolvedServer): Record<string, string> {
  const labels: Record<string, string> = {
    [NAME_LABEL]: server.model,
    [MANAGED_BY_LABEL]: MANAGED_BY_VALUE,
    [KUBERNETES_ID_LABEL]: server.model,
    [RUNTIME_LABEL]: server.runtime,
    [CATEGORY_LABEL]: server.category,
  };
  if (server.version) labels[SERVER_VERSION_LABEL] = server.version.value;
  return labels;
}

/** A plumbing value of a resolved server, or its default (`PLUMBING_DEFAULTS`). */
function plumbingValue(
  server: ResolvedServer,
  key: keyof ResolvedServer['plumbing'],
): string | undefined {
  return (
    server.plumbing[key]?.value ??
    (PLUMBING_DEFAULTS as Record<string, string>)[key]
  );
}

/**
 * The name the engine serves the model under: the `model` clients send in an OpenAI request, and
 * the value the gateway routes on. Plumbing `served_model_name` says which: `model_name` (the
 * model's key in models.yaml; OVMS runs with --model_name={{.Name}}) or `model_id` (vLLM under
 * KServe runs with --served-model-name = spec.model.name).
 */
export function servedModelName(server: {
  model: string;
  modelId: string;
  plumbing: { served_model_name?: { value: string } };
}): string {
  const which =
    server.plumbing.served_model_name?.value ??
    PLUMBING_DEFAULTS.served_model_name;
  return which === 'model_name' ? server.model : server.modelId;
}

/**
 * Whether an object belongs to one model (undeploy deletes it) or is shared (create-if-absent:
 * the ClusterServingRuntime, the namespace's weights claim — created when missing, never changed,
 * never deleted by model-manager).
 */
export function isOwnedByModel(
  object: Pick<RenderedObject, 'applyPolicy'>,
): boolean {
  return object.applyPolicy !== 'create-if-absent';
}

/**
 * Renders a resolved server into the Kubernetes objects to apply, in apply order: the `objects`
 * of its engine profile (runtimes/<name>/profile.yaml; e.g. vLLM: one LLMInferenceService;
 * OpenVINO: the ClusterServingRuntime and the namespace's weights PersistentVolumeClaim, both
 * create-if-absent, the weights download Job, the InferenceService), then the profile's route
 * templates for its plumbing `routing` (aigateway: Backend, AIServiceBackend, AIGatewayRoute).
 * Output is deterministic.
 *
 * @throws InputError when the namespace is not a namespace name Kubernetes accepts.
 */
export function renderManifests(
  catalog: Catalog,
  server: ResolvedServer,
  options: RenderOptions,
): RenderedObject[] {
  const nsProblem = namespaceProblem(options.namespace);
  if (nsProblem) {
    throw new InputError(
      `cannot render model ${server.model}: ${nsProblem}; Kubernetes refuses the objects`,
    );
  }
  const runtime = catalog.runtimes[server.runtime];
  const context = templateContext(server, runtime.profile, options);
  const objects: RenderedObject[] = [];
  const push = (
    manifest: Record<string, any>,
    source: string,
    applyPolicy: RenderedObject['applyPolicy'],
  ) => {
    objects.push({
      apiVersion: manifest.apiVersion,
      kind: manifest.kind,
      name: manifest.metadata?.name,
      namespace: manifest.metadata?.namespace,
      applyPolicy,
      source,
      manifest,
    });
  };

  const render = (
    ref: string,
    applyPolicy: RenderedObject['applyPolicy'] = 'apply',
  ) =>
    push(
      fillTemplate(catalog.templates[ref], context),
      catalog.templates[ref].file,
      applyPolicy,
    );

  for (const object of runtime.profile.objects) {
    if (object.template) render(object.template, object.apply);
    else if (object.servingRuntime && runtime.servingRuntime) {
      const manifest = copy(
        runtime.servingRuntime.manifest as TemplateValue,
      ) as Record<string, any>;
      manifest.metadata = {
        ...manifest.metadata,
        labels: {
          ...(manifest.metadata?.labels ?? {}),
          [MANAGED_BY_LABEL]: MANAGED_BY_VALUE,
        },
      };
      push(manifest, runtime.servingRuntime.file, object.apply);
    }
  }
  const routing = plumbingValue(server, 'routing');
  const routes =
    routing !== undefined &&
    Object.prototype.hasOwnProperty.call(runtime.profile.routing, routing)
      ? runtime.profile.routing[routing]
      : [];
  for (const ref of routes) render(ref);
  return objects;
}

/** The value of every placeholder of `TEMPLATE_PLACEHOLDERS` for one model. */
function templateContext(
  server: ResolvedServer,
  profile: EngineProfile,
  options: RenderOptions,
): TemplateContext {
  const plumbing = (key: keyof ResolvedServer['plumbing']) =>
    plumbingValue(server, key);
  const annotations: Record<string, string> = {
    [MODEL_ID_ANNOTATION]: server.modelId,
  };
  if (plumbing('routing'))
    annotations[ROUTING_ANNOTATION] = plumbing('routing')!;
  if (plumbing('device')) annotations[DEVICE_ANNOTATION] = plumbing('device')!;
  const args = server.args.map(a => a.value);
  return {
    'model.name': server.model,
    'model.model_id': server.modelId,
    'model.category': server.category,
    namespace: options.namespace,
    labels: modelLabels(server),
    annotations,
    image: server.image.value,
    args: args.length > 0 ? args : undefined,
    env: renderEnv(server.env),
    image_pull_secrets: renderPullSecrets(server),
    download_env: renderDownloadEnv(server, profile),
    download_init_containers: renderDownloadInitContainers(server, profile),
    cpu: server.resources.cpu.value,
    memory: server.resources.memory.value,
    format: plumbing('format'),
    runtime_name: plumbing('runtime_name'),
    model_downloader_image: plumbing('model_downloader_image'),
    device: plumbing('device'),
    routing: plumbing('routing'),
    pull_args: downloadArgs(server, profile),
    served_model_name: servedModelName(server),
    api_prefix: plumbing('api_prefix'),
    weights_pvc: plumbing('weights_pvc'),
    weights_path: weightsPath(server, profile),
    weights_storage: plumbing('weights_storage'),
    weights_storage_class: plumbing('weights_storage_class'),
    weights_access_mode: plumbing('weights_access_mode'),
    // Shared objects belong to no one model: no kubernetes-id label.
    shared_labels: { [MANAGED_BY_LABEL]: MANAGED_BY_VALUE },
    gateway_name: plumbing('gateway_name'),
    gateway_namespace: plumbing('gateway_namespace'),
  };
}

/** The values of the placeholders of a profile's `weights:` items (download args, path). */
function downloadValues(
  server: ResolvedServer,
  profile: EngineProfile,
): Record<string, string | undefined> {
  const device = server.plumbing.device?.value;
  return {
    'model.name': server.model,
    'model.model_id': server.modelId,
    'model.category': server.category,
    task: profile.downloadTasks[server.category] ?? profile.defaultDownloadTask,
    device,
    device_upper: device?.toUpperCase(),
    weight_format: server.weightFormat?.value,
  };
}

/** An item with its `${...}` placeholders filled; undefined when one of them has no value. */
function fillItem(
  item: string,
  values: Record<string, string | undefined>,
): string | undefined {
  let missing = false;
  const filled = item.replace(/\$\{([^}]*)\}/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) missing = true;
    return value ?? '';
  });
  return missing ? undefined : filled;
}

/**
 * The weights download Job's arguments (`pull_args`): the profile's `weights.download_args`, each
 * item's placeholders filled; an item whose placeholder has no value is left out (no device: no
 * `--target_device=...`; no weight_format where the resolver allowed none: no `--weight-format`).
 */
function downloadArgs(
  server: ResolvedServer,
  profile: EngineProfile,
): string[] | undefined {
  if (profile.downloadArgs.length === 0) return undefined;
  const values = downloadValues(server, profile);
  return profile.downloadArgs
    .map(item => fillItem(item, values))
    .filter((a): a is string => a !== undefined);
}

/**
 * Where the download puts a model's weights, relative to the weights claim (`weights_path`): the
 * profile's `weights.path` filled (OVMS: `<model name>/<model_id>`); undefined for an engine
 * without one.
 */
export function weightsPath(
  server: ResolvedServer,
  profile: EngineProfile,
): string | undefined {
  return profile.weightsPath === undefined
    ? undefined
    : fillItem(profile.weightsPath, downloadValues(server, profile));
}
