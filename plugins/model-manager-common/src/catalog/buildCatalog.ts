import { z } from 'zod';
import {
  ENGINE_PROFILES,
  KV_CACHE_ENV,
  ROUTING_TEMPLATES,
  TEMPLATE_FILES,
  type TemplateKey,
} from '../constants';
import { parseTemplate } from '../renderer/parseTemplate';
import { TEMPLATE_PLACEHOLDERS } from '../renderer/renderManifests';
import { resolveModel } from '../resolver/resolveServer';
import {
  categorySchema,
  modelSchema,
  modelsFileSchema,
  PLUMBING_KEYS,
  resourcesSchema,
  runtimeSchema,
  serverBindingSchema,
  valuesFileSchema,
  versionSchema,
  type ModelsFile,
  type ObjectKind,
  type ValuesFile,
} from '../schema/modelsFileSchema';
import { zodProblems } from '../schema/zodProblems';
import { parseYamlSource } from '../source/parseYamlSource';
import { CatalogError, formatPath } from '../source/problems';
import type { CatalogProblem, SourceDocument } from '../source/types';
import type {
  Catalog,
  CatalogRuntime,
  CatalogSources,
  Layer,
  Origin,
  SourceIndex,
} from './types';

/** The key under which a node of the shared-origins tree keeps its origin. */
const ORIGIN = Symbol('origin');

/**
 * An origin that keeps its path segments in a private field (not in JSON, not seen by equality
 * checks), so `locate` can find its line:col later. Cheaper than a WeakMap from origins to paths:
 * a catalog creates hundreds of thousands of origins.
 */
class LocatableOrigin implements Origin {
  declare line?: number;
  declare col?: number;
  readonly path: string;
  readonly #segments: ReadonlyArray<string | number>;

  constructor(
    readonly layer: Layer,
    readonly file: string,
    segments: ReadonlyArray<string | number>,
  ) {
    this.path = formatPath(segments);
    this.#segments = segments;
  }

  static segmentsOf(o: Origin): ReadonlyArray<string | number> | undefined {
    return o instanceof LocatableOrigin ? o.#segments : undefined;
  }
}

/**
 * Builds a validated catalog from source texts: parses models.yaml, each runtime's values.yaml
 * and the templates; merges plumbing (models.yaml wins on any clash); then resolves every model
 * with no overrides, so a catalog that builds is one where every model can be rendered.
 *
 * @throws CatalogError listing every problem with file:line:col, path and fix.
 */
export function buildCatalog(sources: CatalogSources): Catalog {
  const problems: CatalogProblem[] = [];
  const index: SourceIndex = {};
  const parse = (file: string, text: string) => {
    try {
      const doc = parseYamlSource(file, text);
      index[file] = doc;
      return doc;
    } catch (e) {
      if (e instanceof CatalogError) problems.push(...e.problems);
      else throw e;
      return undefined;
    }
  };

  // models.yaml
  const modelsDoc = parse(sources.models.file, sources.models.text);
  let modelsFile: ModelsFile | undefined;
  if (modelsDoc) {
    const parsed = modelsFileSchema.safeParse(modelsDoc.data ?? {});
    if (parsed.success) modelsFile = parsed.data;
    else
      problems.push(...zodProblems(parsed.error, modelsDoc, knownModelsKeys));
  }

  // runtimes/<name>/values.yaml
  const values: Record<string, { doc: SourceDocument; data: ValuesFile }> = {};
  for (const [runtimeName, source] of Object.entries(sources.values)) {
    const doc = parse(source.file, source.text);
    if (!doc) continue;
    const parsed = valuesFileSchema.safeParse(doc.data ?? {});
    if (parsed.success) values[runtimeName] = { doc, data: parsed.data };
    else problems.push(...zodProblems(parsed.error, doc, () => PLUMBING_KEYS));
  }

  // templates
  const template = (key: TemplateKey) => {
    const name = TEMPLATE_FILES[key];
    const source = sources.templates[name];
    if (!source) {
      problems.push({
        file: `templates/${name}`,
        path: '',
        message: `template ${name} is missing; it renders ${key} objects`,
      });
      return undefined;
    }
    try {
      return parseTemplate(source.file, source.text, TEMPLATE_PLACEHOLDERS);
    } catch (e) {
      if (e instanceof CatalogError) problems.push(...e.problems);
      else throw e;
      return undefined;
    }
  };
  const templates: Partial<Catalog['templates']> = {};
  for (const key of Object.keys(TEMPLATE_FILES) as TemplateKey[])
    templates[key] = template(key);

  if (problems.length > 0 || !modelsFile || !modelsDoc)
    throw new CatalogError(problems);

  // Origins get their line:col only when asked (`locate`): loading a catalog never pays for
  // locating its thousands of values.
  // Runtime-level values (runtime env, categories, versions, plumbing) are the same for every
  // model of a runtime: their origins are made once and shared, found through a tree of maps keyed
  // by layer, file and each path segment (no key strings to build). Model origins are not kept.
  const shared = new Map<unknown, any>();
  const origin = (
    layerName: Layer,
    file: string,
    path: ReadonlyArray<string | number>,
  ): Origin => {
    if (layerName === 'model' || layerName === 'override')
      return new LocatableOrigin(layerName, file, path);
    let node = shared.get(layerName);
    if (!node) shared.set(layerName, (node = new Map()));
    let next = node.get(file);
    if (!next) node.set(file, (next = new Map()));
    node = next;
    for (const segment of path) {
      next = node.get(segment);
      if (!next) node.set(segment, (next = new Map()));
      node = next;
    }
    let o: Origin | undefined = node.get(ORIGIN);
    if (!o) node.set(ORIGIN, (o = new LocatableOrigin(layerName, file, path)));
    return o;
  };
  const locate = <T extends Origin>(o: T): T => {
    const path = LocatableOrigin.segmentsOf(o);
    if (path && o.line === undefined) {
      const pos = index[o.file]?.locate(path);
      if (pos) {
        o.line = pos.line;
        o.col = pos.col;
      }
    }
    return o;
  };
  const modelsPath = sources.models.file;

  // Merge plumbing into runtimes and check each runtime on its own.
  const runtimes: Record<string, CatalogRuntime> = {};
  const warnings: string[] = [];
  for (const [name, config] of Object.entries(modelsFile.runtimes)) {
    const fromValues = values[name];
    const merged: Record<string, unknown> = {
      ...(fromValues?.data ?? {}),
      ...config,
    };
    const plumbingOrigins: CatalogRuntime['plumbingOrigins'] = {};
    for (const key of PLUMBING_KEYS) {
      if (config[key] !== undefined) {
        plumbingOrigins[key] = origin('plumbing', modelsPath, [
          'runtimes',
          name,
          key,
        ]);
      } else if (fromValues?.data[key] !== undefined) {
        plumbingOrigins[key] = origin('plumbing', fromValues.doc.file, [key]);
      }
    }
    const rPath = ['runtimes', name];
    const at = (path: Array<string | number>) =>
      origin('plumbing', modelsPath, path);
    const add = (o: Origin, message: string) => {
      locate(o);
      problems.push({
        file: o.file,
        line: o.line,
        col: o.col,
        path: o.path,
        message,
      });
    };

    if (merged.kind === undefined) {
      add(
        at(rPath),
        `runtime ${name} has no kind; set kind: LLMInferenceService or InferenceService in runtimes/${name}/values.yaml`,
      );
      continue;
    }
    const versioned = config.versions !== undefined;
    if (versioned) {
      if (Object.keys(config.versions!).length === 0) {
        add(
          at([...rPath, 'versions']),
          'versions: is empty; add at least one version with an image, or remove versions: for a flat runtime',
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
    if (
      config.env &&
      Object.prototype.hasOwnProperty.call(config.env, KV_CACHE_ENV)
    ) {
      add(
        at([...rPath, 'env', KV_CACHE_ENV]),
        `${KV_CACHE_ENV} is deliberately not in the shared env: it is set per category from kv_cache_gb. Remove it here and set runtimes.${name}.categories.<category>.defaults.kv_cache_gb`,
      );
    }
    const profile = ENGINE_PROFILES[merged.kind as ObjectKind];
    for (const key of PLUMBING_KEYS) {
      const where = plumbingOrigins[key];
      if (!where) continue;
      if (!profile.plumbingKeys.includes(key)) {
        add(
          where,
          `plumbing key ${key} does not apply to runtime ${name} (${
            merged.kind
          }, ${
            profile.engine
          }): its objects never use it, so it would be silently ignored. Remove it; keys that apply here: ${profile.plumbingKeys.join(
            ', ',
          )}`,
        );
      } else if (key === 'image' && versioned) {
        add(
          where,
          `plumbing key image does not apply to runtime ${name}: it has versions:, and each version's image is used, so this one would be silently ignored. Remove it; set ${formatPath(
            [...rPath, 'versions'],
          )}.<version>.image, or server.image on a model`,
        );
      }
    }
    if (merged.kind === 'InferenceService') {
      for (const key of [
        'image',
        'model_downloader_image',
        'format',
        'runtime_name',
      ] as const) {
        if (merged[key] === undefined) {
          add(
            at(rPath),
            `runtime ${name} (InferenceService) needs plumbing key ${key}; set it in runtimes/${name}/values.yaml`,
          );
        }
      }
    }
    if (
      typeof merged.routing === 'string' &&
      !ROUTING_TEMPLATES[merged.routing]
    ) {
      add(
        plumbingOrigins.routing!,
        `routing '${
          merged.routing
        }' is not known; set routing to one of ${Object.keys(
          ROUTING_TEMPLATES,
        ).join(', ')}`,
      );
    }
    let servingRuntime: CatalogRuntime['servingRuntime'];
    const manifestPath = merged.serving_runtime_manifest as string | undefined;
    if (manifestPath !== undefined) {
      const source = sources.manifests[manifestPath];
      const where = plumbingOrigins.serving_runtime_manifest!;
      if (!source) {
        add(
          where,
          `serving_runtime_manifest '${manifestPath}' was not found under runtimes/; fix the path (it is relative to runtimes/)`,
        );
      } else {
        const doc = parse(source.file, source.text);
        const manifest = doc?.data as Record<string, any> | undefined;
        if (
          doc &&
          (!manifest ||
            typeof manifest !== 'object' ||
            !manifest.kind ||
            !manifest.metadata?.name)
        ) {
          add(
            origin('plumbing', source.file, []),
            'a serving runtime manifest must be one Kubernetes object with kind and metadata.name',
          );
        } else if (manifest) {
          if (
            merged.runtime_name !== undefined &&
            manifest.metadata.name !== merged.runtime_name
          ) {
            add(
              origin('plumbing', source.file, ['metadata', 'name']),
              `metadata.name is '${manifest.metadata.name}' but runtime_name is '${merged.runtime_name}'; InferenceServices would reference a runtime that does not exist. Make them equal`,
            );
          }
          servingRuntime = { file: source.file, manifest };
        }
      }
    }
    runtimes[name] = {
      name,
      config: merged as CatalogRuntime['config'] & { kind: ObjectKind },
      plumbingOrigins,
      versioned,
      servingRuntime,
    };
  }
  for (const name of Object.keys(values)) {
    if (!modelsFile.runtimes[name]) {
      warnings.push(
        `${values[name].doc.file}: runtime ${name} has plumbing but no entry under runtimes: in ${modelsPath}; it is ignored`,
      );
    }
  }
  if (problems.length > 0) throw new CatalogError(problems);

  const catalog: Catalog = {
    modelsFile: modelsPath,
    models: {},
    runtimes,
    templates: templates as Catalog['templates'],
    origin,
    locate,
    warnings,
  };
  for (const [name, config] of Object.entries(modelsFile.models)) {
    catalog.models[name] = { name, config };
  }
  for (const model of Object.values(catalog.models)) {
    const outcome = resolveModel(catalog, model);
    if ('problems' in outcome) problems.push(...outcome.problems);
  }
  if (problems.length > 0) throw new CatalogError(problems);
  return catalog;
}

/** The keys allowed at a path of models.yaml, for "did you mean" hints on unknown keys. */
function knownModelsKeys(
  path: ReadonlyArray<string | number>,
): readonly string[] {
  const keysOf = (schema: z.ZodObject<any>) => Object.keys(schema.shape);
  const p = path;
  if (p.length === 0) return keysOf(modelsFileSchema);
  if (p[0] === 'models') {
    if (p.length === 2) return keysOf(modelSchema);
    if (p.length === 3 && p[2] === 'server') return keysOf(serverBindingSchema);
    if (p.length === 4 && p[3] === 'resources')
      return keysOf(resourcesSchema.omit({ weight_format: true }));
  }
  if (p[0] === 'runtimes') {
    if (p.length === 2) return keysOf(runtimeSchema);
    if (p.length === 4 && p[2] === 'versions') return keysOf(versionSchema);
    if (p.length === 4 && p[2] === 'categories') return keysOf(categorySchema);
    if (p.length === 5 && p[4] === 'defaults') return keysOf(resourcesSchema);
  }
  return [];
}
