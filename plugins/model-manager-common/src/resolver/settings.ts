import type { CatalogRuntime } from '../catalog/types';
import type { PlumbingValue } from '../profile/plumbing';
import type { VersionConfig } from '../schema/modelsFileSchema';
import { formatPath } from '../source/problems';
import type { CatalogProblem } from '../source/types';
import { checkArg, checkDottedForms } from './checkArg';
import { checkKvCache, checkKvCacheCategory } from './checkKvCache';
import { ArgLayers, EnvLayers, layer, NameLayers } from './layering';
import {
  failAt,
  problemAt,
  removal,
  type Failure,
  type Path,
  type Scope,
} from './scope';
import type {
  ResolvedArg,
  ResolvedPullSecret,
  ResolvedServer,
  Traced,
} from './types';

/*
 * One function per setting of a resolved server, in the order resolveModel applies them. Each
 * reads the model's Scope and returns the traced value, or a Failure naming file:line and fix.
 */

/** Version: request > model server_version > runtime default_version; none for a flat runtime. */
export function resolveVersion(s: Scope): Traced<string> | undefined | Failure {
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
export function resolveImage(
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
export function resolveResources(s: Scope):
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
    if (!traced && m.server.resources?.[key] === null) {
      // The model removed what its category sets: the problem is its own null, not the category.
      const path = [...mPath, 'server', 'resources', key];
      return failAt(
        s.catalog,
        at('model', path),
        `${key}: null removes the ${key} category ${
          m.category
        } sets (${formatPath([
          ...cPath,
          'defaults',
          key,
        ])}), but a pod needs a ${key} request and limit. Set a value here (e.g. ${
          key === 'cpu' ? '4' : '8Gi'
        }), or remove the line to keep the category's`,
      );
    }
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
export function resolveEnv(
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
  const kvProblems = [
    ...checkKvCache(profile, result.env, memory, result.removedEnv),
    ...checkKvCacheCategory(profile, result.env, {
      name: s.model.name,
      category: m.category,
      envPath: formatPath([...mPath, 'server', 'env']),
    }),
  ].map(p => problemAt(s.catalog.locate(p.origin), p.message));
  if (kvProblems.length > 0) return { problems: kvProblems, notFound: false };
  return result;
}

/**
 * Image pull secrets: the runtime's + the version's + the model's `image_pull_secrets`, each name
 * once, in first-listed order. Lists add up (no layer removes one): the kubelet tries each
 * secret and a model's own image may need its own registry's credentials.
 */
export function resolvePullSecrets(
  s: Scope,
  versionConfig: VersionConfig | undefined,
  vPath: Path,
): ResolvedPullSecret[] {
  const { r, m, rPath, mPath, at } = s;
  const names = new NameLayers();
  names.apply(r.image_pull_secrets, i =>
    at('runtime-env', [...rPath, 'image_pull_secrets', i]),
  );
  names.apply(versionConfig?.image_pull_secrets, i =>
    at('version', [...vPath, 'image_pull_secrets', i]),
  );
  names.apply(m.server.image_pull_secrets, i =>
    at('model', [...mPath, 'server', 'image_pull_secrets', i]),
  );
  return names.result();
}

/** Args: category args + version delta + model args + request; each item one valid flag. */
export function resolveArgs(
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
  for (const { arg, message } of checkDottedForms(resolved, profile))
    problems.push(problemAt(s.catalog.locate(arg.origin), message));
  if (problems.length > 0) return { problems, notFound: false };
  return resolved;
}

/**
 * weight_format: category default, replaced by the model's (null opts out). Only for engines whose
 * profile converts weights, and refused for repos already in the engine's format.
 */
export function resolveWeightFormat(
  s: Scope,
): Traced<string> | undefined | Failure {
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

/**
 * Plumbing: the runtime's merged plumbing keys (those its engine profile declares), each with the
 * file that set it. A key no file sets is absent (the renderer fills the profile's default).
 */
export function resolvePlumbing(
  runtime: CatalogRuntime,
): ResolvedServer['plumbing'] {
  const plumbing: ResolvedServer['plumbing'] = {};
  for (const key of runtime.profile.plumbingKeys) {
    const value = runtime.config[key];
    const origin = runtime.plumbingOrigins[key];
    if (value !== undefined && origin)
      plumbing[key] = layer(undefined, value as PlumbingValue, origin);
  }
  return plumbing;
}
