import {
  describeOrigin,
  resolveServer,
  type Catalog,
  type ModelSummary,
  type RuntimeSummary,
} from '@model-manager/plugin-model-manager-common';

/** What the API says about a model (the full resolution is under /models/:name/resolved). */
export function summarizeModel(catalog: Catalog, name: string): ModelSummary {
  const { config } = catalog.models[name];
  const server = resolveServer(catalog, name, {}, { locate: false });
  return {
    name,
    modelId: config.model_id,
    description: config.description,
    displayName: config.display_name,
    category: config.category,
    runtime: server.runtime,
    kind: server.kind,
    version: server.version?.value,
    versionSource: server.version?.origin.layer,
    pinnedVersion: config.server.server_version,
    image: server.image.value,
    moe: config.moe ?? false,
    weightFormat: server.weightFormat?.value,
    owner: config.owner,
    lifecycle: config.lifecycle,
    system: config.system,
    tags: config.tags ?? [],
  };
}

/** A runtime with its versions (default marked), common env, categories, plumbing and models. */
export function summarizeRuntime(
  catalog: Catalog,
  name: string,
): RuntimeSummary {
  const runtime = catalog.runtimes[name];
  const r = runtime.config;
  return {
    name,
    kind: r.kind,
    versioned: runtime.versioned,
    defaultVersion: r.default_version,
    versions: Object.entries(r.versions ?? {}).map(([version, v]) => ({
      version,
      image: v.image,
      default: version === r.default_version,
      env: v.env ?? {},
      args: v.args ?? [],
    })),
    env: r.env ?? {},
    categories: Object.entries(r.categories).map(([category, c]) => ({
      name: category,
      defaults: c.defaults ?? {},
      env: c.env ?? {},
      args: c.args ?? [],
    })),
    plumbing: Object.fromEntries(
      Object.entries(runtime.plumbingOrigins).map(([key, origin]) => [
        key,
        {
          value: (r as Record<string, unknown>)[key],
          source: describeOrigin(catalog.locate(origin!)),
        },
      ]),
    ),
    servingRuntime: runtime.servingRuntime
      ? {
          file: runtime.servingRuntime.file,
          name: (runtime.servingRuntime.manifest as any).metadata?.name,
        }
      : undefined,
    models: Object.values(catalog.models)
      .filter(m => m.config.server.runtime === name)
      .map(m => m.name),
  };
}
