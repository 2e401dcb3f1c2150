import { InputError, NotFoundError } from '@backstage/errors';
import type {
  Catalog,
  CatalogModel,
  CatalogRuntime,
  Origin,
} from '../catalog/types';
import {
  ENGINE_PROFILES,
  KV_CACHE_ENV,
  REQUEST_FILE,
  type EngineProfile,
} from '../constants';
import { PLUMBING_KEYS } from '../schema/modelsFileSchema';
import { formatPath, formatProblem } from '../source/problems';
import type { CatalogProblem } from '../source/types';
import { ArgLayers, EnvLayers, layer } from './layering';
import { checkKvCache } from './checkKvCache';
import { checkModelName } from './checkModelName';
import type {
  RemovedSetting,
  ResolvedArg,
  ResolvedServer,
  ServerOverrides,
  Traced,
} from './types';
import { validateOverrides } from './validateOverrides';

/**
 * Resolves what a model would run with.
 *
 * Layering rules (runtimes.md), each layer overriding the one before. The layers, their order and
 * the names the CLI and the UI show for them are {@link LAYERS} (layers.ts); every value's origin
 * names one of them.
 *
 * - **Version**: the request's `serverVersion` (`--server-version`), else the model's
 *   `server.server_version`, else the runtime's `default_version`. It must be a key of the
 *   runtime's `versions:`. Flat runtimes (no `versions:`, e.g. OpenVINO) have no version: a
 *   requested one is refused with a message saying so.
 * - **Image**: the selected version's `image`; for a flat runtime its plumbing `image`. A model's
 *   `server.image` replaces either.
 * - **Env**: runtime `env` (common to every pod) + category `env` + the category's
 *   `kv_cache_gb` as the engine's KV-cache variable (`VLLM_CPU_KVCACHE_SPACE`; omitted where no
 *   kv_cache_gb is set) + the version's `env` delta + the model's `server.env` + the model's
 *   `server.resources.kv_cache_gb` (after its own env, so it wins over both) + the request's
 *   `env`. A later layer replaces a variable in place; `null` in any later layer removes an
 *   inherited variable, and a variable set again after a removal keeps that history. Values are
 *   strings (YAML numbers/booleans become their text).
 * - **Args**: category `args` + the version's `args` delta + the model's `server.args` + the
 *   request's `args`. Each item is one flag (`--flag` or `--flag=value`; not `--flag value`, `-`
 *   or `--`). A flag repeated later replaces the earlier one in place (last wins, first position
 *   kept); flags are compared as the engine's parser reads them (vLLM: `_` is `-`, `-ep` is
 *   `--enable-expert-parallel`), and the output keeps the spelling written.
 * - **cpu / memory / kv_cache_gb**: the category's `defaults`, replaced by the model's
 *   `server.resources`; `null` there removes the category's value. kv_cache_gb is a whole
 *   number of GiB and, with the KV-cache variable as finally set, must fit the engine's share of
 *   the final memory limit (vLLM: half).
 * - **weight_format** (engines that convert weights: OVMS): category `defaults.weight_format`,
 *   replaced by the model's `weight_format`; `null` on the model removes the category's. Refused
 *   for repos already in the engine's format (`OpenVINO/*`, matched in any case, as OVMS does).
 * - **Plumbing** (`device`, `kind`, `routing`, ...): runtimes/<name>/values.yaml merged under the
 *   runtime's entry in models.yaml, models.yaml winning on any clash (checked in buildCatalog:
 *   a key that does not apply to the runtime is an error).
 * - MoE-only flags (`--enable-expert-parallel`, ...) from any layer, in any spelling, are refused
 *   unless the model says `moe: true`.
 * - The model's name must be accepted for every object it becomes (MODEL_NAME_OBJECTS).
 *
 * What differs between engines is read from ENGINE_PROFILES (constants.ts), keyed by `kind`.
 *
 * Inputs are never mutated. Every value carries its {@link Origin} and the values it replaced.
 *
 * @throws NotFoundError for an unknown model or server version; InputError for a bad request or
 * a rule violation (the message names the layer's file:line and path, and the fix).
 */
export function resolveServer(
  catalog: Catalog,
  modelName: string,
  overrides: ServerOverrides = {},
  options: { locate?: boolean } = {},
): ResolvedServer {
  const model = Object.prototype.hasOwnProperty.call(catalog.models, modelName)
    ? catalog.models[modelName]
    : undefined;
  if (!model) {
    throw new NotFoundError(
      `unknown model '${modelName}'; models in ${
        catalog.modelsFile
      }: ${Object.keys(catalog.models).slice(0, 20).join(', ')}`,
    );
  }
  const outcome = resolveModel(catalog, model, overrides);
  if ('problems' in outcome) {
    const message = outcome.problems.map(formatProblem).join('\n');
    throw outcome.notFound
      ? new NotFoundError(message)
      : new InputError(message);
  }
  // Positions cost a YAML parse with source tracking; rendering and deploying do not need them.
  if (options.locate !== false)
    forEachOrigin(outcome.server, o => catalog.locate(o));
  return outcome.server;
}

/** Calls `fn` with every origin of a resolved server (values and what they replaced). */
export function forEachOrigin(
  server: ResolvedServer,
  fn: (origin: Origin) => void,
) {
  const traced = (
    t: { origin: Origin; overrode: Array<{ origin: Origin }> } | undefined,
  ) => {
    if (!t) return;
    fn(t.origin);
    for (const o of t.overrode) fn(o.origin);
  };
  traced(server.version);
  traced(server.image);
  traced(server.resources.cpu);
  traced(server.resources.memory);
  traced(server.resources.kvCacheGb);
  traced(server.weightFormat);
  server.env.forEach(traced);
  server.removedEnv.forEach(traced);
  server.removed?.forEach(traced);
  server.args.forEach(traced);
  Object.values(server.plumbing).forEach(traced);
}

/** The same resolution, returning problems as data (used to validate a whole catalog). */
export function resolveModel(
  catalog: Catalog,
  model: CatalogModel,
  overrides: ServerOverrides = {},
):
  | { server: ResolvedServer }
  | { problems: CatalogProblem[]; notFound: boolean } {
  const problems = validateOverrides(overrides);
  if (problems.length > 0) return { problems, notFound: false };

  const file = catalog.modelsFile;
  const m = model.config;
  const mPath = ['models', model.name];
  const at = (
    layerName: Origin['layer'],
    path: ReadonlyArray<string | number>,
  ) => catalog.origin(layerName, file, path);
  const request = (path: ReadonlyArray<string | number>): Origin => ({
    layer: 'override',
    file: REQUEST_FILE,
    path: formatPath(path),
  });
  const fail = (origin: Origin, message: string, notFound = false) => ({
    problems: [problemAt(catalog.locate(origin), message)],
    notFound,
  });

  const runtime: CatalogRuntime | undefined =
    catalog.runtimes[m.server.runtime];
  if (!runtime) {
    return fail(
      at('model', [...mPath, 'server', 'runtime']),
      `unknown runtime '${m.server.runtime}'; runtimes: ${Object.keys(
        catalog.runtimes,
      ).join(', ')}`,
    );
  }
  const r = runtime.config;
  const rPath = ['runtimes', runtime.name];
  const category = r.categories[m.category];
  if (!category) {
    return fail(
      at('model', [...mPath, 'category']),
      `unknown category '${m.category}' for runtime ${
        runtime.name
      }; its categories: ${Object.keys(r.categories).join(', ')}`,
    );
  }
  const cPath = [...rPath, 'categories', m.category];

  // Version: request > model server_version > runtime default_version.
  let version: Traced<string> | undefined;
  if (runtime.versioned) {
    if (r.default_version !== undefined) {
      version = layer(
        undefined,
        r.default_version,
        at('runtime-default', [...rPath, 'default_version']),
      );
    }
    if (m.server.server_version !== undefined) {
      version = layer(
        version,
        m.server.server_version,
        at('model', [...mPath, 'server', 'server_version']),
      );
    }
    if (overrides.serverVersion !== undefined) {
      version = layer(
        version,
        overrides.serverVersion,
        request(['serverVersion']),
      );
    }
    if (!version || !r.versions?.[version.value]) {
      const known = Object.keys(r.versions ?? {})
        .map(v => (v === r.default_version ? `${v} (default)` : v))
        .join(', ');
      return fail(
        version?.origin ?? at('runtime-default', rPath),
        `unknown server version '${version?.value}' for runtime ${
          runtime.name
        }; versions: ${known}. Add it under ${formatPath([
          ...rPath,
          'versions',
        ])} or pick one of these`,
        version?.origin.layer === 'override',
      );
    }
  } else {
    if (overrides.serverVersion !== undefined) {
      return fail(
        request(['serverVersion']),
        `runtime ${runtime.name} is flat (it has no versions:), so a server version does not apply; remove --server-version (serverVersion: '${overrides.serverVersion}')`,
      );
    }
    if (m.server.server_version !== undefined) {
      return fail(
        at('model', [...mPath, 'server', 'server_version']),
        `runtime ${runtime.name} is flat (it has no versions:), so server_version does not apply; remove it`,
      );
    }
  }
  const versionConfig = version ? r.versions![version.value] : undefined;
  const vPath = version ? [...rPath, 'versions', version.value] : [];
  const profile = ENGINE_PROFILES[runtime.config.kind];

  const nameProblems = checkModelName(model.name, runtime.config.kind);
  if (nameProblems.length > 0) {
    const origin = catalog.locate(at('model', mPath));
    return {
      problems: nameProblems.map(message => problemAt(origin, message)),
      notFound: false,
    };
  }

  // Image: the version's image (flat: plumbing image), replaced by the model's.
  let image: Traced<string> | undefined;
  if (versionConfig) {
    image = layer(
      undefined,
      versionConfig.image,
      at('version', [...vPath, 'image']),
    );
  } else if (r.image !== undefined) {
    image = layer(undefined, r.image, runtime.plumbingOrigins.image!);
  }
  if (m.server.image !== undefined) {
    image = layer(
      image,
      m.server.image,
      at('model', [...mPath, 'server', 'image']),
    );
  }
  if (!image) {
    return fail(
      at('model', [...mPath, 'server']),
      `no image: runtime ${runtime.name} has neither versions nor a plumbing image; set image in runtimes/${runtime.name}/values.yaml or server.image on the model`,
    );
  }

  // Resources: category defaults, replaced by the model's server.resources (null removes).
  const removed: RemovedSetting[] = [];
  const resource = <K extends 'cpu' | 'memory' | 'kv_cache_gb'>(key: K) => {
    let traced: Traced<any> | undefined;
    const fromCategory = category.defaults?.[key];
    if (fromCategory !== undefined) {
      traced = layer(
        undefined,
        fromCategory,
        at('category', [...cPath, 'defaults', key]),
      );
    }
    const fromModel = m.server.resources?.[key];
    const origin = at('model', [...mPath, 'server', 'resources', key]);
    if (fromModel === null) {
      if (traced) removed.push(removal(`resources.${key}`, traced, origin));
      traced = undefined;
    } else if (fromModel !== undefined) {
      traced = layer(traced, fromModel, origin);
    }
    return traced;
  };
  const cpu = resource('cpu');
  const memory = resource('memory');
  const kvCacheGb = resource('kv_cache_gb') as Traced<number> | undefined;
  for (const [key, traced] of [
    ['cpu', cpu],
    ['memory', memory],
  ] as const) {
    if (!traced) {
      return fail(
        at('category', cPath),
        `no ${key} for category ${m.category}: set ${formatPath([
          ...cPath,
          'defaults',
          key,
        ])} or ${formatPath([...mPath, 'server', 'resources', key])}`,
      );
    }
  }
  const asText = (t: Traced<string | number>): Traced<string> => ({
    value: String(t.value),
    origin: t.origin,
    overrode: t.overrode.map(o => ({ ...o, value: String(o.value) })),
  });

  if (kvCacheGb && !profile.kvCacheEnv) {
    return fail(
      kvCacheGb.origin,
      `kv_cache_gb sizes vLLM's CPU KV cache (${KV_CACHE_ENV}); runtime ${runtime.name} (${runtime.config.kind}, ${profile.engine}) does not use it. Remove it`,
    );
  }

  // Env: runtime common env + category env (+ KV cache) + version delta + model env + request.
  const env = new EnvLayers();
  env.apply(r.env, n => at('runtime-env', [...rPath, 'env', n]));
  env.apply(category.env, n => at('category', [...cPath, 'env', n]));
  const kvFromCategory = category.defaults?.kv_cache_gb;
  if (kvFromCategory !== undefined && profile.kvCacheEnv) {
    env.set(
      profile.kvCacheEnv,
      String(kvFromCategory),
      at('category', [...cPath, 'defaults', 'kv_cache_gb']),
    );
  }
  env.apply(versionConfig?.env, n => at('version', [...vPath, 'env', n]));
  env.apply(m.server.env, n => at('model', [...mPath, 'server', 'env', n]));
  const kvFromModel = m.server.resources?.kv_cache_gb;
  if (kvFromModel !== undefined && profile.kvCacheEnv) {
    env.set(
      profile.kvCacheEnv,
      kvFromModel === null ? null : String(kvFromModel),
      at('model', [...mPath, 'server', 'resources', 'kv_cache_gb']),
    );
  }
  env.apply(overrides.env, n => request(['env', n]));
  const { env: resolvedEnv, removedEnv } = env.result();

  const kvProblems = checkKvCache(profile, resolvedEnv, memory!).map(p =>
    problemAt(catalog.locate(p.origin), p.message),
  );
  if (kvProblems.length > 0) return { problems: kvProblems, notFound: false };

  // Args: category args + version delta + model args + request.
  const args = new ArgLayers(profile);
  args.apply(category.args, i => at('category', [...cPath, 'args', i]));
  args.apply(versionConfig?.args, i => at('version', [...vPath, 'args', i]));
  args.apply(m.server.args, i => at('model', [...mPath, 'server', 'args', i]));
  args.apply(overrides.args, i => request(['args', i]));
  const resolvedArgs = args.result();

  const argProblems: CatalogProblem[] = [];
  for (const arg of resolvedArgs) {
    const problem = checkArg(arg, profile, m.moe ?? false, model.name);
    if (problem)
      argProblems.push(problemAt(catalog.locate(arg.origin), problem));
  }
  if (argProblems.length > 0) return { problems: argProblems, notFound: false };

  // weight_format: OpenVINO conversion knob, only for raw Hugging Face repos (null opts out).
  let weightFormat: Traced<string> | undefined;
  if (category.defaults?.weight_format !== undefined) {
    weightFormat = layer(
      undefined,
      category.defaults.weight_format,
      at('category', [...cPath, 'defaults', 'weight_format']),
    );
  }
  if (m.weight_format === null) {
    if (weightFormat)
      removed.push(
        removal(
          'weight_format',
          weightFormat,
          at('model', [...mPath, 'weight_format']),
        ),
      );
    weightFormat = undefined;
  } else if (m.weight_format !== undefined) {
    weightFormat = layer(
      weightFormat,
      m.weight_format,
      at('model', [...mPath, 'weight_format']),
    );
  }
  if (weightFormat) {
    if (!profile.convertsWeights) {
      return fail(
        weightFormat.origin,
        `weight_format is a conversion knob for ovms --pull; runtime ${runtime.name} (${runtime.config.kind}, ${profile.engine}) does not convert weights. Remove weight_format`,
      );
    }
    if (
      profile.irRepoPrefix &&
      m.model_id.toLowerCase().startsWith(profile.irRepoPrefix.toLowerCase())
    ) {
      return fail(
        weightFormat.origin,
        `model ${model.name} sets weight_format: ${weightFormat.value}, but ${
          m.model_id
        } is already OpenVINO IR; ovms --pull aborts with "unsupported for OpenVINO models". Remove weight_format${
          weightFormat.origin.layer === 'category'
            ? ` from the category, set weight_format: null on the model, or give this model a category without it`
            : ''
        }`,
      );
    }
  }

  const plumbing: ResolvedServer['plumbing'] = {};
  for (const key of PLUMBING_KEYS) {
    const value = r[key];
    const origin = runtime.plumbingOrigins[key];
    if (value !== undefined && origin)
      plumbing[key] = layer(undefined, value, origin);
  }

  return {
    server: {
      model: model.name,
      modelId: m.model_id,
      category: m.category,
      moe: m.moe ?? false,
      runtime: runtime.name,
      kind: runtime.config.kind,
      version,
      image,
      env: resolvedEnv,
      removedEnv,
      args: resolvedArgs,
      resources: {
        cpu: asText(cpu!),
        memory: asText(memory!),
        kvCacheGb: profile.kvCacheEnv ? kvCacheGb : undefined,
      },
      weightFormat,
      removed,
      plumbing,
    },
  };
}

/** The record of a setting removed with `null` by the layer at `origin`. */
function removal(
  key: string,
  traced: Traced<string | number>,
  origin: Origin,
): RemovedSetting {
  return {
    key,
    origin,
    overrode: [
      ...traced.overrode,
      { value: traced.value, origin: traced.origin },
    ],
  };
}

/**
 * One args item is one flag as the engine's parser reads it: `--flag` or `--flag=value`, never a
 * bare value, `-`/`--` alone, or a flag and its value separated by a space (the engine gets one
 * token and does not read it as the flag). MoE-only flags need `moe: true`, in any spelling.
 */
function checkArg(
  arg: ResolvedArg,
  profile: EngineProfile,
  moe: boolean,
  model: string,
): string | undefined {
  if (!arg.flag.startsWith('-')) {
    return `'${arg.value}' is not a flag; each args item is one flag such as --max-model-len=8192 (write --flag=value as a single item)`;
  }
  if (arg.flag === '-' || arg.flag === '--') {
    return `'${arg.value}' alone is not a flag: vLLM's parser reads '--' as the end of options and '-' as a value. Remove it; each args item is one flag such as --max-model-len=8192`;
  }
  const space = /\s/.exec(arg.flag);
  if (space) {
    const fixed = arg.value.replace(/\s+/, '=');
    return `'${
      arg.value
    }' is a flag and its value in one item separated by a space; the engine gets it as one token and does not read it as ${arg.flag.slice(
      0,
      space.index,
    )}. Write ${fixed}`;
  }
  if (!moe && profile.moeOnlyFlags.includes(arg.key)) {
    const spelled =
      arg.flag === arg.key ? arg.flag : `${arg.flag} (${arg.key})`;
    return `${spelled} is a MoE-only flag and crashes dense models; model ${model} is not marked moe: true. Remove ${arg.flag} from this layer, or set moe: true on the model if it is a mixture-of-experts model`;
  }
  return undefined;
}

function problemAt(origin: Origin, message: string): CatalogProblem {
  return {
    file: origin.file,
    line: origin.line,
    col: origin.col,
    path: origin.path,
    message,
  };
}
