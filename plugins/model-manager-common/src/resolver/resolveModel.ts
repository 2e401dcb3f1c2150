import type {
  Catalog,
  CatalogModel,
  CatalogRuntime,
  Origin,
} from '../catalog/types';
import { REQUEST_FILE } from '../constants';
import type { EngineProfile } from '../profile/types';
import type {
  CategoryConfig,
  ModelConfig,
  RuntimeConfig,
  VersionConfig,
} from '../schema/modelsFileSchema';
import { PLUMBING_KEYS } from '../schema/modelsFileSchema';
import { formatPath } from '../source/problems';
import type { CatalogProblem } from '../source/types';
import { checkKvCache } from './checkKvCache';
import { checkModelName } from './checkModelName';
import { ArgLayers, EnvLayers, layer } from './layering';
import type {
  RemovedSetting,
  ResolvedArg,
  ResolvedServer,
  ServerOverrides,
  Traced,
} from './types';
import { validateOverrides } from './validateOverrides';

type Path = ReadonlyArray<string | number>;
type Failure = { problems: CatalogProblem[]; notFound: boolean };

/** Everything one model's resolution reads: the model, its runtime and category, and their paths. */
interface Scope {
  catalog: Catalog;
  model: CatalogModel;
  m: ModelConfig;
  runtime: CatalogRuntime;
  r: RuntimeConfig;
  profile: EngineProfile;
  category: CategoryConfig;
  overrides: ServerOverrides;
  mPath: Path;
  rPath: Path;
  cPath: Path;
  at(layer: Origin['layer'], path: Path): Origin;
  request(path: Path): Origin;
  /** Settings removed with `null`, collected across settings. */
  removed: RemovedSetting[];
}

const failAt = (
  catalog: Catalog,
  origin: Origin,
  message: string,
  notFound = false,
): Failure => ({
  problems: [problemAt(catalog.locate(origin), message)],
  notFound,
});
const failed = (x: unknown): x is Failure =>
  typeof x === 'object' && x !== null && 'problems' in x;

/**
 * The layered resolution of one model (rules: see resolveServer's doc comment), returning
 * problems as data (used to validate a whole catalog). One function per setting below.
 */
export function resolveModel(
  catalog: Catalog,
  model: CatalogModel,
  overrides: ServerOverrides = {},
): { server: ResolvedServer } | Failure {
  const overrideProblems = validateOverrides(overrides);
  if (overrideProblems.length > 0)
    return { problems: overrideProblems, notFound: false };
  const scope = scopeOf(catalog, model, overrides);
  if (failed(scope)) return scope;
  const { m, runtime, profile } = scope;

  const version = resolveVersion(scope);
  if (failed(version)) return version;
  const versionConfig = version ? scope.r.versions![version.value] : undefined;
  const vPath = version ? [...scope.rPath, 'versions', version.value] : [];

  const nameProblems = checkModelName(model.name, profile);
  if (nameProblems.length > 0) {
    const origin = catalog.locate(scope.at('model', scope.mPath));
    return {
      problems: nameProblems.map(message => problemAt(origin, message)),
      notFound: false,
    };
  }
  const image = resolveImage(scope, versionConfig, vPath);
  if (failed(image)) return image;
  const resources = resolveResources(scope);
  if (failed(resources)) return resources;
  const env = resolveEnv(scope, versionConfig, vPath, resources.memory);
  if (failed(env)) return env;
  const args = resolveArgs(scope, versionConfig, vPath);
  if (failed(args)) return args;
  const weightFormat = resolveWeightFormat(scope);
  if (failed(weightFormat)) return weightFormat;

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
      env: env.env,
      removedEnv: env.removedEnv,
      args,
      resources: {
        cpu: asText(resources.cpu),
        memory: asText(resources.memory),
        kvCacheGb: profile.kvCacheEnv ? resources.kvCacheGb : undefined,
      },
      weightFormat,
      removed: scope.removed,
      plumbing: resolvePlumbing(runtime),
    },
  };
}

/** The model's runtime, category and the paths and origin makers every setting uses. */
function scopeOf(
  catalog: Catalog,
  model: CatalogModel,
  overrides: ServerOverrides,
): Scope | Failure {
  const file = catalog.modelsFile;
  const m = model.config;
  const mPath = ['models', model.name];
  const at = (layerName: Origin['layer'], path: Path) =>
    catalog.origin(layerName, file, path);
  const runtime: CatalogRuntime | undefined =
    catalog.runtimes[m.server.runtime];
  if (!runtime) {
    return failAt(
      catalog,
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
    return failAt(
      catalog,
      at('model', [...mPath, 'category']),
      `unknown category '${m.category}' for runtime ${
        runtime.name
      }; its categories: ${Object.keys(r.categories).join(', ')}`,
    );
  }
  return {
    catalog,
    model,
    m,
    runtime,
    r,
    profile: runtime.profile,
    category,
    overrides,
    mPath,
    rPath,
    cPath: [...rPath, 'categories', m.category],
    at,
    request: path => ({
      layer: 'override',
      file: REQUEST_FILE,
      path: formatPath(path),
    }),
    removed: [],
  };
}

/** Version: request > model server_version > runtime default_version; none for a flat runtime. */
function resolveVersion(s: Scope): Traced<string> | undefined | Failure {
  const { catalog, runtime, r, m, mPath, rPath, at, overrides } = s;
  if (!runtime.versioned) {
    if (overrides.serverVersion !== undefined) {
      return failAt(
        catalog,
        s.request(['serverVersion']),
        `runtime ${runtime.name} is flat (it has no versions:), so a server version does not apply; remove --server-version (serverVersion: '${overrides.serverVersion}')`,
      );
    }
    if (m.server.server_version !== undefined) {
      return failAt(
        catalog,
        at('model', [...mPath, 'server', 'server_version']),
        `runtime ${runtime.name} is flat (it has no versions:), so server_version does not apply; remove it`,
      );
    }
    return undefined;
  }
  let version: Traced<string> | undefined;
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
      s.request(['serverVersion']),
    );
  }
  if (!version || !r.versions?.[version.value]) {
    const known = Object.keys(r.versions ?? {})
      .map(v => (v === r.default_version ? `${v} (default)` : v))
      .join(', ');
    return failAt(
      catalog,
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
  return version;
}

/** Image: the version's image (flat: plumbing image), replaced by the model's. */
function resolveImage(
  s: Scope,
  versionConfig: VersionConfig | undefined,
  vPath: Path,
): Traced<string> | Failure {
  const { runtime, r, m, mPath, at } = s;
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
    return failAt(
      s.catalog,
      at('model', [...mPath, 'server']),
      `no image: runtime ${runtime.name} has neither versions nor a plumbing image; set image in runtimes/${runtime.name}/values.yaml or server.image on the model`,
    );
  }
  return image;
}

/** cpu / memory / kv_cache_gb: the category's defaults, replaced by server.resources (null removes). */
function resolveResources(s: Scope):
  | {
      cpu: Traced<string | number>;
      memory: Traced<string | number>;
      kvCacheGb?: Traced<number>;
    }
  | Failure {
  const { category, m, mPath, cPath, at, runtime, profile } = s;
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
      if (traced) s.removed.push(removal(`resources.${key}`, traced, origin));
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
      return failAt(
        s.catalog,
        at('category', cPath),
        `no ${key} for category ${m.category}: set ${formatPath([
          ...cPath,
          'defaults',
          key,
        ])} or ${formatPath([...mPath, 'server', 'resources', key])}`,
      );
    }
  }
  if (kvCacheGb && !profile.kvCacheEnv) {
    return failAt(
      s.catalog,
      kvCacheGb.origin,
      `kv_cache_gb sizes the engine's KV cache; runtime ${runtime.name} (${runtime.config.kind}, ${profile.engine}) declares no KV-cache variable in its engine profile (${profile.file}, kv_cache:), so it does not use it. Remove it`,
    );
  }
  return { cpu: cpu!, memory: memory!, kvCacheGb };
}

/**
 * Env: runtime common env + category env (+ the category's kv_cache_gb as the profile's KV-cache
 * variable) + version delta + model env (+ the model's kv_cache_gb) + request; then the KV cache
 * is checked against the memory limit.
 */
function resolveEnv(
  s: Scope,
  versionConfig: VersionConfig | undefined,
  vPath: Path,
  memory: Traced<string | number>,
): ReturnType<EnvLayers['result']> | Failure {
  const { r, m, category, profile, mPath, rPath, cPath, at } = s;
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
  env.apply(s.overrides.env, n => s.request(['env', n]));
  const result = env.result();
  const kvProblems = checkKvCache(profile, result.env, memory).map(p =>
    problemAt(s.catalog.locate(p.origin), p.message),
  );
  if (kvProblems.length > 0) return { problems: kvProblems, notFound: false };
  return result;
}

/** Args: category args + version delta + model args + request; each item one valid flag. */
function resolveArgs(
  s: Scope,
  versionConfig: VersionConfig | undefined,
  vPath: Path,
): ResolvedArg[] | Failure {
  const { m, category, profile, mPath, cPath, at } = s;
  const args = new ArgLayers(profile);
  args.apply(category.args, i => at('category', [...cPath, 'args', i]));
  args.apply(versionConfig?.args, i => at('version', [...vPath, 'args', i]));
  args.apply(m.server.args, i => at('model', [...mPath, 'server', 'args', i]));
  args.apply(s.overrides.args, i => s.request(['args', i]));
  const resolved = args.result();
  const problems: CatalogProblem[] = [];
  for (const arg of resolved) {
    const problem = checkArg(arg, profile, m.moe ?? false, s.model.name);
    if (problem)
      problems.push(problemAt(s.catalog.locate(arg.origin), problem));
  }
  if (problems.length > 0) return { problems, notFound: false };
  return resolved;
}

/**
 * weight_format: category default, replaced by the model's (null opts out). Only for engines whose
 * profile converts weights, and refused for repos already in the engine's format.
 */
function resolveWeightFormat(s: Scope): Traced<string> | undefined | Failure {
  const { catalog, category, m, model, runtime, profile, mPath, cPath, at } = s;
  let weightFormat: Traced<string> | undefined;
  if (category.defaults?.weight_format !== undefined) {
    weightFormat = layer(
      undefined,
      category.defaults.weight_format,
      at('category', [...cPath, 'defaults', 'weight_format']),
    );
  }
  const modelOrigin = at('model', [...mPath, 'weight_format']);
  if (m.weight_format === null) {
    if (weightFormat)
      s.removed.push(removal('weight_format', weightFormat, modelOrigin));
    weightFormat = undefined;
  } else if (m.weight_format !== undefined) {
    weightFormat = layer(weightFormat, m.weight_format, modelOrigin);
  }
  if (!weightFormat) return undefined;
  if (!profile.convertsWeights) {
    const converters = [
      ...new Set(
        Object.values(catalog.runtimes)
          .map(rt => rt.profile.converter)
          .filter((c): c is string => c !== undefined),
      ),
    ];
    return failAt(
      catalog,
      weightFormat.origin,
      `weight_format is a conversion knob for ${
        converters.join(' or ') || 'an engine that converts weights'
      }; runtime ${runtime.name} (${runtime.config.kind}, ${
        profile.engine
      }) does not convert weights (its engine profile ${
        profile.file
      } has no weights:). Remove weight_format`,
    );
  }
  if (
    profile.irRepoPrefix &&
    m.model_id.toLowerCase().startsWith(profile.irRepoPrefix.toLowerCase())
  ) {
    return failAt(
      catalog,
      weightFormat.origin,
      `model ${model.name} sets weight_format: ${weightFormat.value}, but ${
        m.model_id
      } is already ${
        profile.irFormat ?? `in the engine's format (${profile.irRepoPrefix}*)`
      }${
        profile.irRepoRefusal ? `; ${profile.irRepoRefusal}` : ''
      }. Remove weight_format${
        weightFormat.origin.layer === 'category'
          ? ` from the category, set weight_format: null on the model, or give this model a category without it`
          : ''
      }`,
    );
  }
  return weightFormat;
}

/** Plumbing: the runtime's merged plumbing keys, each with the file that set it. */
function resolvePlumbing(runtime: CatalogRuntime): ResolvedServer['plumbing'] {
  const plumbing: ResolvedServer['plumbing'] = {};
  for (const key of PLUMBING_KEYS) {
    const value = runtime.config[key];
    const origin = runtime.plumbingOrigins[key];
    if (value !== undefined && origin)
      plumbing[key] = layer(undefined, value, origin);
  }
  return plumbing;
}

const asText = (t: Traced<string | number>): Traced<string> => ({
  value: String(t.value),
  origin: t.origin,
  overrode: t.overrode.map(o => ({ ...o, value: String(o.value) })),
});

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
    return `'${arg.value}' alone is not a flag: ${profile.engine}'s parser reads '--' as the end of options and '-' as a value. Remove it; each args item is one flag such as --max-model-len=8192`;
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
  if (!profile.flagEqualsValue && arg.value.includes('=')) {
    return `'${arg.value}' is a flag with a value, but ${
      profile.engine
    }'s parser does not read --flag=value as one item (its engine profile ${
      profile.file
    } says flag_equals_value: false), and an args item cannot hold a flag and its value apart. ${
      profile.argsHint ?? 'Set it another way, e.g. through env'
    }`;
  }
  if (!moe && profile.moeOnlyFlags.includes(arg.key)) {
    const spelled =
      arg.flag === arg.key ? arg.flag : `${arg.flag} (${arg.key})`;
    return `${spelled} is a MoE-only flag and crashes dense models; model ${model} is not marked moe: true. Remove ${arg.flag} from this layer, or set moe: true on the model if it is a mixture-of-experts model`;
  }
  return undefined;
}

export function problemAt(origin: Origin, message: string): CatalogProblem {
  return {
    file: origin.file,
    line: origin.line,
    col: origin.col,
    path: origin.path,
    message,
  };
}
