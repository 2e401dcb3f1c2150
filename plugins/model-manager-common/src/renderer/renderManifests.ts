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
  ROUTING_ANNOTATION,
  RUNTIME_LABEL,
  SERVER_VERSION_LABEL,
} from '../constants';
import type { PlumbingValue } from '../profile/plumbing';
import type {
  ControllerGateway,
  ControllerTls,
  GatewayClassRequirement,
  GatewayConfigRequirement,
  EngineProfile,
} from '../profile/types';
import type { ResolvedServer } from '../resolver/types';
import { copy, fillTemplate } from './fillTemplate';
import {
  renderDownloadEnv,
  renderDownloadInitContainers,
  renderEnv,
  renderPullSecrets,
} from './renderEnv';
import type { RenderedObject, TemplateContext, TemplateValue } from './types';

/**
 * The placeholders model-manager fills for every model, whatever its engine. The rest of a
 * template's placeholders are its engine profile's plumbing keys (`plumbing:`), each filled with
 * the runtime's value or the declared default; anything else is an error at load time. `image` is
 * the resolved image (a version's, a model's, or a flat runtime's plumbing image) and
 * `served_model_name` the name the model is served under (see {@link servedModelName}), not the
 * plumbing values of those names.
 */
export const BUILTIN_PLACEHOLDERS = [
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
  'pull_args',
  'served_model_name',
  'weights_path',
  'shared_labels',
  'image_pull_secrets',
  'download_env',
  'download_init_containers',
] as const;

/**
 * The placeholders the templates of an engine may use: the built-in ones, its plumbing keys and
 * the names its `routing_values:` give values to.
 */
export function placeholdersOf(
  profile: Pick<EngineProfile, 'plumbingKeys'> &
    Partial<Pick<EngineProfile, 'routingValues'>>,
): string[] {
  const names = new Set<string>([
    ...BUILTIN_PLACEHOLDERS,
    ...profile.plumbingKeys,
  ]);
  for (const values of Object.values(profile.routingValues ?? {}))
    for (const name of Object.keys(values)) names.add(name);
  return [...names];
}

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

/** A plumbing value of a resolved server, or its default in the engine profile (`plumbing:`). */
function plumbingValue(
  server: ResolvedServer,
  profile: EngineProfile,
  key: string,
): PlumbingValue | undefined {
  return server.plumbing[key]?.value ?? profile.plumbing[key]?.default;
}

/**
 * The Gateway the engine's controller attaches this model's route to by itself, for its routing
 * (profile `controller_gateway:`); undefined when its routes are all rendered here, or none.
 */
export function controllerGatewayOf(
  catalog: Pick<Catalog, 'runtimes'>,
  server: ResolvedServer,
): ControllerGateway | undefined {
  return ofRouting(catalog, server, (profile, routing) =>
    Object.prototype.hasOwnProperty.call(profile.controllerGateway, routing)
      ? profile.controllerGateway[routing]
      : undefined,
  );
}

/**
 * The kinds the engine's controller creates for this model by itself, for its routing (profile
 * `controller_kinds:`); empty when none.
 */
export function controllerKindsOf(
  catalog: Pick<Catalog, 'runtimes'>,
  server: ResolvedServer,
): ReadonlyArray<{ apiVersion: string; kind: string; routing: string }> {
  return listOfRouting(catalog, server, p => p.controllerKinds);
}

/**
 * The switch in the engine controller's config that would make this model's workload HTTPS,
 * which its routing's routes do not speak (profile `controller_tls:`); undefined when none.
 */
export function controllerTlsOf(
  catalog: Pick<Catalog, 'runtimes'>,
  server: ResolvedServer,
): (ControllerTls & { routing: string }) | undefined {
  return entryOfRouting(catalog, server, p => p.controllerTls);
}

/**
 * The controller that must serve the class of the Gateway this model's rendered routes attach to
 * (profile `gateway_class:`); undefined when its routing names none.
 */
export function gatewayClassOf(
  catalog: Pick<Catalog, 'runtimes'>,
  server: ResolvedServer,
): (GatewayClassRequirement & { routing: string }) | undefined {
  return entryOfRouting(catalog, server, p => p.gatewayClass);
}

/**
 * What the config of the controller serving this model's routing's objects must say (profile
 * `gateway_config:`); empty when nothing.
 */
export function gatewayConfigOf(
  catalog: Pick<Catalog, 'runtimes'>,
  server: ResolvedServer,
): ReadonlyArray<GatewayConfigRequirement & { routing: string }> {
  return listOfRouting(catalog, server, p => p.gatewayConfig);
}

/** A per-routing list of the profile for the model's routing, each entry with it; empty when none. */
function listOfRouting<T extends object>(
  catalog: Pick<Catalog, 'runtimes'>,
  server: ResolvedServer,
  section: (profile: EngineProfile) => Readonly<Record<string, readonly T[]>>,
): ReadonlyArray<T & { routing: string }> {
  return (
    ofRouting(catalog, server, (profile, routing) =>
      Object.prototype.hasOwnProperty.call(section(profile), routing)
        ? section(profile)[routing].map(entry => ({ ...entry, routing }))
        : undefined,
    ) ?? []
  );
}

/** A section's entry for the model's routing, with the routing named; undefined when none. */
function entryOfRouting<T extends object>(
  catalog: Pick<Catalog, 'runtimes'>,
  server: ResolvedServer,
  section: (profile: EngineProfile) => Readonly<Record<string, T>>,
): (T & { routing: string }) | undefined {
  return ofRouting(catalog, server, (profile, routing) =>
    Object.prototype.hasOwnProperty.call(section(profile), routing)
      ? { ...section(profile)[routing], routing }
      : undefined,
  );
}

/** What a profile says for the model's routing (plumbing `routing`), if anything. */
function ofRouting<T>(
  catalog: Pick<Catalog, 'runtimes'>,
  server: ResolvedServer,
  entry: (profile: EngineProfile, routing: string) => T | undefined,
): T | undefined {
  const profile = catalog.runtimes[server.runtime]?.profile;
  if (!profile) return undefined;
  const routing = plumbingValue(server, profile, 'routing');
  return typeof routing === 'string' ? entry(profile, routing) : undefined;
}

/** The name clients send when no layer and no profile says which (`served_model_name`). */
const SERVED_MODEL_NAME_WHEN_UNSET = 'model_id';

/**
 * The name the engine serves the model under: the `model` clients send in an OpenAI request, and
 * the value the gateway routes on. Plumbing `served_model_name` says which: `model_name` (the
 * model's key in models.yaml; OVMS runs with --model_name={{.Name}}) or `model_id` (vLLM under
 * KServe runs with --served-model-name = spec.model.name).
 */
export function servedModelName(server: {
  model: string;
  modelId: string;
  plumbing: { served_model_name?: { value: PlumbingValue } };
}): string {
  const which =
    server.plumbing.served_model_name?.value ?? SERVED_MODEL_NAME_WHEN_UNSET;
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
  const routing = plumbingValue(server, runtime.profile, 'routing');
  const routes =
    typeof routing === 'string' &&
    Object.prototype.hasOwnProperty.call(runtime.profile.routing, routing)
      ? runtime.profile.routing[routing]
      : [];
  for (const ref of routes) render(ref);
  return objects;
}

/**
 * The value of every placeholder for one model: the built-in ones (`BUILTIN_PLACEHOLDERS`), then
 * each plumbing key its profile declares, with the runtime's value or the declared default, then
 * the profile's routing values; an earlier one wins over a later one of the same name. Built as
 * one object, in that order: spreading a context built key by key into the built-ins (as this
 * did) took half of the resolve and render of 10,000 models (`node bench/render.js 10000`).
 */
function templateContext(
  server: ResolvedServer,
  profile: EngineProfile,
  options: RenderOptions,
): TemplateContext {
  const plumbing = (key: string) => {
    const value = plumbingValue(server, profile, key);
    return value === undefined ? undefined : String(value);
  };
  const annotations: Record<string, string> = {
    [MODEL_ID_ANNOTATION]: server.modelId,
  };
  if (plumbing('routing'))
    annotations[ROUTING_ANNOTATION] = plumbing('routing')!;
  if (plumbing('device')) annotations[DEVICE_ANNOTATION] = plumbing('device')!;
  const args = server.args.map(a => a.value);
  const servedName = plumbing('served_model_name');
  // The built-in placeholders win over a plumbing key or a routing value of the same name.
  const context: TemplateContext = {
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
    pull_args: downloadArgs(server, profile),
    served_model_name: servedModelName({
      model: server.model,
      modelId: server.modelId,
      plumbing: servedName ? { served_model_name: { value: servedName } } : {},
    }),
    weights_path: weightsPath(server, profile),
    // Shared objects belong to no one model: no kubernetes-id label.
    shared_labels: { [MANAGED_BY_LABEL]: MANAGED_BY_VALUE },
  };
  const unset = (name: string) =>
    !Object.prototype.hasOwnProperty.call(context, name);
  // Then each plumbing key the profile declares (its value, or the declared default)...
  for (const key of profile.plumbingKeys)
    if (unset(key)) context[key] = plumbingValue(server, profile, key);
  // ...then the values routing_values gives for the model's routing (a copy each render: a
  // rendered object never shares, and never changes, the profile's data)...
  const routing = plumbing('routing');
  if (
    routing &&
    Object.prototype.hasOwnProperty.call(profile.routingValues, routing)
  )
    for (const [name, value] of Object.entries(profile.routingValues[routing]))
      if (unset(name)) context[name] = copy(value as TemplateValue);
  // ...and the names routing_values gives values to under another routing: absent.
  for (const values of Object.values(profile.routingValues))
    for (const name of Object.keys(values))
      if (unset(name)) context[name] = undefined;
  return context;
}

/** The values of the placeholders of a profile's `weights:` items (download args, path). */
function downloadValues(
  server: ResolvedServer,
  profile: EngineProfile,
): Record<string, string | undefined> {
  const device = plumbingValue(server, profile, 'device');
  return {
    'model.name': server.model,
    'model.model_id': server.modelId,
    'model.category': server.category,
    task: profile.downloadTasks[server.category] ?? profile.defaultDownloadTask,
    device: device === undefined ? undefined : String(device),
    device_upper:
      device === undefined ? undefined : String(device).toUpperCase(),
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
