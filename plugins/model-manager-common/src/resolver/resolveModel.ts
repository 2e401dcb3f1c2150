import { kvCacheFromEnv } from './checkKvCache';
import type {
  Catalog,
  CatalogModel,
  CatalogRuntime,
  Origin,
} from '../catalog/types';
import { REQUEST_FILE } from '../constants';
import type { EngineProfile } from '../profile/types';
import { formatPath } from '../source/problems';
import { checkModelName } from './checkModelName';
import {
  asText,
  failAt,
  failed,
  problemAt,
  type Failure,
  type Path,
  type Scope,
} from './scope';
import {
  resolveArgs,
  resolveEnv,
  resolveImage,
  resolvePlumbing,
  resolvePullSecrets,
  resolveResources,
  resolveVersion,
  resolveWeightFormat,
} from './settings';
import type { ResolvedServer, ServerOverrides } from './types';
import { validateOverrides } from './validateOverrides';

export { problemAt } from './scope';

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

  const nameProblems = checkModelName(
    model.name,
    profile,
    routedNames(catalog, runtime, profile),
  );
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
      imagePullSecrets: resolvePullSecrets(scope, versionConfig, vPath),
      args,
      resources: {
        cpu: asText(resources.cpu),
        memory: asText(resources.memory),
        // One traced KV cache: the variable as finally set, whichever layer set it (kv_cache_gb
        // or the variable), so resources.kv_cache_gb and env never disagree.
        kvCacheGb: kvCacheFromEnv(profile, env.env),
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

/**
 * The names the model's routing builds from its name with a plumbing suffix: the Service KServe
 * puts in front of the pods, which the AI gateway's Backend names in its hostname
 * (`${model.name}${workload_service_suffix}`, templates/gateway-backend.yaml). KServe shortens such
 * a name with a hash when it would pass 63 characters (knative.dev/pkg kmeta.ChildName, called by
 * kserve/kserve@aaac4e29 pkg/controller/v1alpha2/llmisvc/workload.go), so the Backend would name a
 * Service that does not exist, and past 63 characters is not even a DNS label.
 */
function routedNames(
  catalog: Catalog,
  runtime: CatalogRuntime,
  profile: EngineProfile,
): Array<{ object: string; suffix: string }> {
  const plumbing = (key: string) =>
    (runtime.config as Record<string, unknown>)[key] ??
    profile.plumbing[key]?.default;
  const routing = plumbing('routing');
  const suffix = plumbing('workload_service_suffix');
  if (typeof routing !== 'string' || typeof suffix !== 'string') return [];
  const templates = Object.prototype.hasOwnProperty.call(
    profile.routing,
    routing,
  )
    ? profile.routing[routing]
    : [];
  const named = templates.some(ref =>
    catalog.templates[ref]?.placeholders.some(
      p => p.name === 'workload_service_suffix',
    ),
  );
  return named
    ? [
        {
          object: `the Service KServe puts in front of its pods, which the ${routing} route's Backend names`,
          suffix,
        },
      ]
    : [];
}
