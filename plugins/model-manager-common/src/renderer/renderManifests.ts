import type { Catalog } from '../catalog/types';
import {
  CATEGORY_LABEL,
  DEVICE_ANNOTATION,
  KUBERNETES_ID_LABEL,
  MANAGED_BY_LABEL,
  MANAGED_BY_VALUE,
  MODEL_ID_ANNOTATION,
  NAME_LABEL,
  OVMS_TASKS,
  ROUTING_ANNOTATION,
  RUNTIME_LABEL,
  SERVER_VERSION_LABEL,
} from '../constants';
import type { ResolvedServer } from '../resolver/types';
import { copy, fillTemplate } from './fillTemplate';
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

/**
 * Renders a resolved server into the Kubernetes objects to apply, in apply order:
 * vLLM -> one LLMInferenceService; OpenVINO -> the ClusterServingRuntime (create-if-absent),
 * the weights download Job (`ovms --pull`), then the InferenceService. Output is deterministic.
 */
export function renderManifests(
  catalog: Catalog,
  server: ResolvedServer,
  options: RenderOptions,
): RenderedObject[] {
  const runtime = catalog.runtimes[server.runtime];
  const plumbing = (key: keyof ResolvedServer['plumbing']) => server.plumbing[key]?.value;
  const annotations: Record<string, string> = { [MODEL_ID_ANNOTATION]: server.modelId };
  if (plumbing('routing')) annotations[ROUTING_ANNOTATION] = plumbing('routing')!;
  if (plumbing('device')) annotations[DEVICE_ANNOTATION] = plumbing('device')!;

  const env = server.env.map(e => ({ name: e.name, value: e.value }));
  const args = server.args.map(a => a.value);
  const context: TemplateContext = {
    'model.name': server.model,
    'model.model_id': server.modelId,
    'model.category': server.category,
    namespace: options.namespace,
    labels: modelLabels(server),
    annotations,
    image: server.image.value,
    args: args.length > 0 ? args : undefined,
    env: env.length > 0 ? env : undefined,
    cpu: server.resources.cpu.value,
    memory: server.resources.memory.value,
    format: plumbing('format'),
    runtime_name: plumbing('runtime_name'),
    model_downloader_image: plumbing('model_downloader_image'),
    device: plumbing('device'),
    routing: plumbing('routing'),
    pull_args: pullArgs(server),
  };

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

  if (server.kind === 'InferenceService') {
    if (runtime.servingRuntime) {
      const manifest = copy(runtime.servingRuntime.manifest as TemplateValue) as Record<string, any>;
      manifest.metadata = {
        ...manifest.metadata,
        labels: { ...(manifest.metadata?.labels ?? {}), [MANAGED_BY_LABEL]: MANAGED_BY_VALUE },
      };
      push(manifest, runtime.servingRuntime.file, 'create-if-absent');
    }
    push(fillTemplate(catalog.templates.downloadJob, context), catalog.templates.downloadJob.file, 'apply');
    push(fillTemplate(catalog.templates.InferenceService, context), catalog.templates.InferenceService.file, 'apply');
  } else {
    push(fillTemplate(catalog.templates.LLMInferenceService, context), catalog.templates.LLMInferenceService.file, 'apply');
  }
  return objects;
}

/** `ovms --pull` arguments; `--weight_format` only where the resolver allowed it. */
function pullArgs(server: ResolvedServer): string[] {
  const args = [
    '--pull',
    `--source_model=${server.modelId}`,
    '--model_repository_path=/models',
    `--model_name=${server.model}`,
    `--task=${OVMS_TASKS[server.category] ?? 'text_generation'}`,
  ];
  const device = server.plumbing.device?.value;
  if (device) args.push(`--target_device=${device.toUpperCase()}`);
  if (server.weightFormat) args.push(`--weight-format=${server.weightFormat.value}`);
  return args;
}
