import type { EngineProfile } from '../profile/types';
import { kvCacheValueProblem } from '../resolver/checkKvCache';
import type { ParsedTemplate } from '../renderer/types';
import type { RuntimeConfig, ValuesFile } from '../schema/modelsFileSchema';
import { isSecretKeyRef } from '../schema/secretRef';
import { formatPath } from '../source/problems';
import type { CatalogProblem, SourceDocument } from '../source/types';
import { mergePlumbing } from './mergePlumbing';
import type { CatalogRuntime, CatalogSources, Layer, Origin } from './types';

/** What merging one runtime needs from the catalog being built. */
export interface MergeContext {
  modelsPath: string;
  sources: CatalogSources;
  templates: Record<string, ParsedTemplate>;
  /** The kinds of the model server objects of every loaded profile (for messages). */
  serverKinds: readonly string[];
  origin(
    layer: Layer,
    file: string,
    path: ReadonlyArray<string | number>,
  ): Origin;
  locate<T extends Origin>(o: T): T;
  parse(file: string, text: string): SourceDocument | undefined;
  /** The parsed source files, by file name (to point at a value rather than its key). */
  index: Record<string, SourceDocument>;
  problems: CatalogProblem[];
}

/** The kind of the object a profile's last template renders: the model server object. */
export function serverKindOf(
  profile: EngineProfile,
  templates: Record<string, ParsedTemplate>,
): string | undefined {
  const last = profile.objects[profile.objects.length - 1];
  const tree = last?.template ? templates[last.template]?.tree : undefined;
  const kind = (tree as { kind?: unknown } | undefined)?.kind;
  return typeof kind === 'string' ? kind : undefined;
}

/**
 * Merges a runtime's plumbing (runtimes/<name>/values.yaml) under its models.yaml entry
 * (models.yaml wins on any clash) and checks it against its engine profile: versions, the kind,
 * plumbing keys that do not apply or are missing, routing, the serving runtime manifest.
 * Problems go to `ctx.problems`; returns undefined when the runtime cannot be used at all.
 */
export function mergeRuntime(
  name: string,
  config: RuntimeConfig,
  fromValues: { doc: SourceDocument; data: ValuesFile } | undefined,
  profile: EngineProfile,
  ctx: MergeContext,
): CatalogRuntime | undefined {
  const { modelsPath, origin } = ctx;
  const merged: Record<string, unknown> = {
    ...(fromValues?.data ?? {}),
    ...config,
  };
  const rPath = ['runtimes', name];
  const at = (path: Array<string | number>) =>
    origin('plumbing', modelsPath, path);
  const add = (o: Origin, message: string) => {
    ctx.locate(o);
    ctx.problems.push({
      file: o.file,
      line: o.line,
      col: o.col,
      path: o.path,
      message,
    });
  };

  const serverKind = serverKindOf(profile, ctx.templates);
  // Every plumbing key declared by the profile, with the declared type (models.yaml wins).
  const { origins: plumbingOrigins, ok } = mergePlumbing(
    name,
    config,
    fromValues,
    profile,
    typeof merged.kind === 'string' ? merged.kind : serverKind,
    {
      modelsPath,
      origin,
      add,
      addAtValue: (file, segments, o, message) => {
        const pos = ctx.index[file]?.locate(segments, 'value');
        ctx.problems.push({
          file,
          line: pos?.line,
          col: pos?.col,
          path: o.path,
          message,
        });
      },
    },
  );
  if (!ok) return undefined;
  // A wrong kind points at the value (`kind: Deployment` -> the D), as a schema error would.
  const atKindValue = (message: string) => {
    const o = plumbingOrigins.kind!;
    const segments =
      o.file === modelsPath ? ['runtimes', name, 'kind'] : ['kind'];
    const pos = ctx.index[o.file]?.locate(segments, 'value');
    ctx.problems.push({
      file: o.file,
      line: pos?.line,
      col: pos?.col,
      path: o.path,
      message,
    });
  };
  if (merged.kind === undefined) merged.kind = serverKind;
  else if (!ctx.serverKinds.includes(merged.kind as string)) {
    atKindValue(`kind must be one of ${ctx.serverKinds.join(', ')}`);
    return undefined;
  } else if (merged.kind !== serverKind) {
    atKindValue(
      `kind is ${merged.kind}, but runtime ${name}'s engine profile (${profile.file}) renders a ${serverKind} as its model server object; set kind: ${serverKind}, or remove kind`,
    );
    return undefined;
  }
  const kind = merged.kind as string;

  const versioned = config.versions !== undefined;
  checkVersions(name, config, profile, versioned, at, add);
  const kvEnv = profile.kvCacheEnv;
  if (
    kvEnv &&
    config.env &&
    Object.prototype.hasOwnProperty.call(config.env, kvEnv)
  ) {
    add(
      at([...rPath, 'env', kvEnv]),
      `${kvEnv} is deliberately not in the shared env: it is set per category from kv_cache_gb. Remove it here and set runtimes.${name}.categories.<category>.defaults.kv_cache_gb`,
    );
  }
  if (kvEnv) {
    // Wherever it is set, also in a category or version no model uses yet (a request may name
    // the version), the value is one vLLM reads; what reaches a model is checked with it too.
    const layers = [
      ...Object.entries(config.categories ?? {}).map(([c, category]) => ({
        env: category.env,
        path: [...rPath, 'categories', c, 'env', kvEnv],
      })),
      ...Object.entries(config.versions ?? {}).map(([v, version]) => ({
        env: version.env,
        path: [...rPath, 'versions', v, 'env', kvEnv],
      })),
    ];
    for (const { env, path } of layers) {
      const value = env?.[kvEnv];
      const message =
        typeof value === 'string' || isSecretKeyRef(value)
          ? kvCacheValueProblem(profile, value)
          : undefined;
      if (message) add(at(path), message);
    }
  }
  if (versioned && plumbingOrigins.image) {
    add(
      plumbingOrigins.image,
      `plumbing key image does not apply to runtime ${name}: it has versions:, and each version's image is used, so this one would be silently ignored. Remove it; set ${formatPath(
        [...rPath, 'versions'],
      )}.<version>.image, or server.image on a model`,
    );
  }
  for (const key of profile.requiredPlumbing) {
    if (merged[key] === undefined) {
      add(
        at(rPath),
        `runtime ${name} (${kind}) needs plumbing key ${key}; set it in runtimes/${name}/values.yaml`,
      );
    }
  }
  if (
    typeof merged.routing === 'string' &&
    !Object.prototype.hasOwnProperty.call(profile.routing, merged.routing)
  ) {
    add(
      plumbingOrigins.routing!,
      `routing '${
        merged.routing
      }' is not known; set routing to one of ${Object.keys(
        profile.routing,
      ).join(', ')}`,
    );
  }
  return {
    name,
    config: merged as CatalogRuntime['config'],
    plumbingOrigins,
    versioned,
    profile,
    servingRuntime: servingRuntimeOf(merged, plumbingOrigins, ctx, add),
  };
}

function checkVersions(
  name: string,
  config: RuntimeConfig,
  profile: EngineProfile,
  versioned: boolean,
  at: (path: Array<string | number>) => Origin,
  add: (o: Origin, message: string) => void,
) {
  const rPath = ['runtimes', name];
  if (versioned && !profile.versioned) {
    add(
      at([...rPath, 'versions']),
      `runtime ${name} is flat: its engine profile (${profile.file}) says versioned: false, so versions: does not apply; remove versions: and set the plumbing image`,
    );
  } else if (!versioned && profile.versioned) {
    // The spec: "vLLM: a versioned runtime. Adding a new engine version is a new entry under
    // versions:". A versioned engine without versions: would run one unnamed image that no
    // request, pin or rollout could name.
    add(
      at(rPath),
      `runtime ${name} has no versions:, but its engine profile (${profile.file}) says versioned: true; add versions: with at least one version and its image (e.g. versions: { "0.24.0": { image: ... } }) and default_version`,
    );
  } else if (versioned) {
    if (Object.keys(config.versions!).length === 0) {
      add(
        at([...rPath, 'versions']),
        `versions: is empty; add at least one version with its image (runtime ${name}'s engine profile, ${profile.file}, says versioned: true)`,
      );
    } else if (config.default_version === undefined) {
      add(
        at(rPath),
        `runtime ${name} has versions but no default_version; set default_version to one of ${Object.keys(
          config.versions!,
        ).join(', ')}`,
      );
    } else if (!config.versions![config.default_version]) {
      add(
        at([...rPath, 'default_version']),
        `default_version '${
          config.default_version
        }' is not a key of versions: (${Object.keys(config.versions!).join(
          ', ',
        )})`,
      );
    }
  } else if (config.default_version !== undefined) {
    add(
      at([...rPath, 'default_version']),
      `runtime ${name} is flat (no versions:), so default_version does not apply; remove it or add versions:`,
    );
  }
}

/** The manifest plumbing `serving_runtime_manifest` names, checked against `runtime_name`. */
function servingRuntimeOf(
  merged: Record<string, unknown>,
  plumbingOrigins: CatalogRuntime['plumbingOrigins'],
  ctx: MergeContext,
  add: (o: Origin, message: string) => void,
): CatalogRuntime['servingRuntime'] {
  const manifestPath = merged.serving_runtime_manifest as string | undefined;
  if (manifestPath === undefined) return undefined;
  const source = ctx.sources.manifests[manifestPath];
  const where = plumbingOrigins.serving_runtime_manifest!;
  if (!source) {
    add(
      where,
      `serving_runtime_manifest '${manifestPath}' was not found under runtimes/; fix the path (it is relative to runtimes/)`,
    );
    return undefined;
  }
  const doc = ctx.parse(source.file, source.text);
  const manifest = doc?.data as Record<string, any> | undefined;
  if (
    doc &&
    (!manifest ||
      typeof manifest !== 'object' ||
      !manifest.kind ||
      !manifest.metadata?.name)
  ) {
    add(
      ctx.origin('plumbing', source.file, []),
      'a serving runtime manifest must be one Kubernetes object with kind and metadata.name',
    );
    return undefined;
  }
  if (!manifest) return undefined;
  if (
    merged.runtime_name !== undefined &&
    manifest.metadata.name !== merged.runtime_name
  ) {
    add(
      ctx.origin('plumbing', source.file, ['metadata', 'name']),
      `metadata.name is '${manifest.metadata.name}' but runtime_name is '${merged.runtime_name}'; InferenceServices would reference a runtime that does not exist. Make them equal`,
    );
  }
  return { file: source.file, manifest };
}
