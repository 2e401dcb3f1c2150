import { z } from 'zod';
import { loadProfile } from '../profile/loadProfile';
import {
  progressProblems,
  refusalProblems,
} from '../progress/progressObjectOf';
import type { EngineProfile } from '../profile/types';
import { parseTemplate } from '../renderer/parseTemplate';
import type { ParsedTemplate } from '../renderer/types';
import { resolveModel } from '../resolver/resolveServer';
import {
  categorySchema,
  modelSchema,
  modelsFileSchema,
  resourcesSchema,
  schemasFor,
  serverBindingSchema,
  versionSchema,
  type ModelsFile,
  type ValuesFile,
} from '../schema/modelsFileSchema';
import { zodProblems } from '../schema/zodProblems';
import { parseYamlSource } from '../source/parseYamlSource';
import { CatalogError } from '../source/problems';
import type { CatalogProblem, SourceDocument } from '../source/types';
import { checkPlaceholders } from './checkPlaceholders';
import { mergeRuntime, serverKindOf } from './mergeRuntime';
import { createOriginIndex } from './originIndex';
import { weightFormatProblems } from './weightFormatProblems';
import type {
  Catalog,
  CatalogRuntime,
  CatalogSources,
  SourceIndex,
} from './types';

/**
 * Builds a validated catalog from source texts: parses models.yaml, each runtime's values.yaml
 * and profile.yaml, and the templates; merges plumbing (models.yaml wins on any clash) and checks
 * each runtime against its engine profile; then resolves every model with no overrides, so a
 * catalog that builds is one where every model can be rendered.
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

  // models.yaml, runtimes/<name>/values.yaml, the templates and the engine profiles. The
  // schemas of models.yaml and values.yaml know the plumbing keys the profiles declare, so their
  // problems are listed where they were always listed: before the templates' and profiles'.
  const modelsDoc = parse(sources.models.file, sources.models.text);
  const afterModels = problems.length;
  const valueDocs: Array<[string, SourceDocument]> = [];
  for (const [runtimeName, source] of Object.entries(sources.values)) {
    const doc = parse(source.file, source.text);
    if (doc) valueDocs.push([runtimeName, doc]);
  }
  const afterValues = problems.length;
  const templates = parseTemplates(sources, problems);
  const profiles = loadProfiles(sources, templates, parse, problems);
  problems.push(...checkPlaceholders(profiles, templates));
  const plumbingKeys = [
    ...new Set(Object.values(profiles).flatMap(p => p.plumbingKeys)),
  ];
  // A profile with errors, or missing, declares no keys: then keys it may declare are not called
  // unknown (the runtime's problem is its profile, reported as such).
  const schemas = schemasFor(
    plumbingKeys,
    Object.keys(profiles).length === Object.keys(sources.profiles).length &&
      everyRuntimeHasAProfile(modelsDoc, valueDocs, profiles),
  );

  let modelsFile: ModelsFile | undefined;
  const modelsProblems: CatalogProblem[] = [];
  if (modelsDoc) {
    const parsed = schemas.models.safeParse(modelsDoc.data ?? {});
    if (parsed.success) modelsFile = parsed.data as ModelsFile;
    else
      modelsProblems.push(
        ...zodProblems(parsed.error, modelsDoc, path =>
          knownModelsKeys(path, schemas.runtime),
        ),
      );
  }
  const values: Record<string, { doc: SourceDocument; data: ValuesFile }> = {};
  const valuesProblems: CatalogProblem[] = [];
  for (const [runtimeName, doc] of valueDocs) {
    const parsed = schemas.values.safeParse(doc.data ?? {});
    if (parsed.success)
      values[runtimeName] = { doc, data: parsed.data as ValuesFile };
    else
      valuesProblems.push(
        ...zodProblems(parsed.error, doc, () => ['profile', ...plumbingKeys]),
      );
  }
  problems.splice(afterValues, 0, ...valuesProblems);
  problems.splice(afterModels, 0, ...modelsProblems);

  if (problems.length > 0 || !modelsFile || !modelsDoc)
    throw new CatalogError(problems);

  const { origin, locate } = createOriginIndex(index);
  const modelsPath = sources.models.file;
  const serverKinds = [
    ...new Set(
      Object.values(profiles)
        .map(p => serverKindOf(p, templates))
        .filter((k): k is string => k !== undefined),
    ),
  ];

  // Merge plumbing into runtimes and check each runtime against its profile.
  const runtimes: Record<string, CatalogRuntime> = {};
  const warnings: string[] = [];
  const ctx = {
    modelsPath,
    sources,
    templates,
    serverKinds,
    origin,
    locate,
    parse,
    index,
    problems,
  };
  for (const [name, config] of Object.entries(modelsFile.runtimes)) {
    const named = config.profile ?? values[name]?.data.profile;
    const ref = named ?? `${name}/profile.yaml`;
    const profile = Object.prototype.hasOwnProperty.call(profiles, ref)
      ? profiles[ref]
      : undefined;
    if (!profile) {
      const o = locate(
        config.profile !== undefined
          ? origin('plumbing', modelsPath, ['runtimes', name, 'profile'])
          : named !== undefined
          ? origin('plumbing', values[name].doc.file, ['profile'])
          : origin('plumbing', modelsPath, ['runtimes', name]),
      );
      problems.push({
        file: o.file,
        line: o.line,
        col: o.col,
        path: o.path,
        message: `runtime ${name} has no engine profile: runtimes/${ref} ${
          Object.prototype.hasOwnProperty.call(sources.profiles, ref)
            ? 'has errors (see above)'
            : 'does not exist'
        }. Add it (what the engine renders and how it reads its settings, e.g. runtimes/vllm/profile.yaml), or name an existing one with profile: (e.g. profile: vllm/profile.yaml)`,
      });
      continue;
    }
    const runtime = mergeRuntime(name, config, values[name], profile, ctx);
    if (runtime) runtimes[name] = runtime;
  }
  for (const name of Object.keys(values)) {
    if (!modelsFile.runtimes[name]) {
      warnings.push(
        `${values[name].doc.file}: runtime ${name} has plumbing but no entry under runtimes: in ${modelsPath}; it is ignored`,
      );
    }
  }
  problems.push(
    ...weightFormatProblems(modelsFile, runtimes, {
      modelsPath,
      origin,
      locate,
    }),
  );
  if (problems.length > 0) throw new CatalogError(problems);

  const catalog: Catalog = {
    modelsFile: modelsPath,
    models: {},
    runtimes,
    templates,
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

/**
 * Each runtime of models.yaml and each values.yaml names a profile that loaded (its `profile:`,
 * else `<runtime>/profile.yaml`). Read from the raw YAML: the schemas are not applied yet.
 */
function everyRuntimeHasAProfile(
  modelsDoc: SourceDocument | undefined,
  valueDocs: Array<[string, SourceDocument]>,
  profiles: Record<string, EngineProfile>,
): boolean {
  const profileOf = (data: unknown): unknown =>
    data && typeof data === 'object'
      ? (data as Record<string, unknown>).profile
      : undefined;
  const named: Record<string, unknown> = {};
  for (const [name, doc] of valueDocs) named[name] = profileOf(doc.data);
  const runtimes = (modelsDoc?.data as Record<string, unknown> | undefined)
    ?.runtimes;
  const entries =
    runtimes && typeof runtimes === 'object'
      ? Object.entries(runtimes as Record<string, unknown>)
      : [];
  const names = new Set([...Object.keys(named), ...entries.map(([n]) => n)]);
  return [...names].every(name => {
    const entry = entries.find(([n]) => n === name)?.[1];
    const ref = profileOf(entry) ?? named[name] ?? `${name}/profile.yaml`;
    return (
      typeof ref === 'string' &&
      Object.prototype.hasOwnProperty.call(profiles, ref)
    );
  });
}

/** Every template under runtimes/templates/, keyed `templates/<file>`, parsed once. */
function parseTemplates(
  sources: CatalogSources,
  problems: CatalogProblem[],
): Record<string, ParsedTemplate> {
  const templates: Record<string, ParsedTemplate> = {};
  const add = (ref: string, file: string, text: string) => {
    try {
      templates[ref] = parseTemplate(file, text);
    } catch (e) {
      if (e instanceof CatalogError) problems.push(...e.problems);
      else throw e;
    }
  };
  for (const [name, source] of Object.entries(sources.templates))
    add(`templates/${name}`, source.file, source.text);
  return templates;
}

/** Each runtime's profile.yaml, checked (schema, templates it names: they must exist and parse). */
function loadProfiles(
  sources: CatalogSources,
  templates: Record<string, ParsedTemplate>,
  parse: (file: string, text: string) => SourceDocument | undefined,
  problems: CatalogProblem[],
): Record<string, EngineProfile> {
  const profiles: Record<string, EngineProfile> = {};
  const known = [
    ...Object.keys(sources.templates).map(f => `templates/${f}`),
    ...Object.keys(sources.manifests),
  ].sort();
  // A template in a runtime's own folder (`<runtime>/<file>.yaml`) is parsed when a profile names it.
  const exists = (ref: string) => {
    if (ref.startsWith('templates/'))
      return Object.prototype.hasOwnProperty.call(
        sources.templates,
        ref.slice('templates/'.length),
      );
    const source = Object.prototype.hasOwnProperty.call(sources.manifests, ref)
      ? sources.manifests[ref]
      : undefined;
    if (!source) return false;
    if (!templates[ref]) {
      try {
        templates[ref] = parseTemplate(source.file, source.text);
      } catch (e) {
        if (e instanceof CatalogError) problems.push(...e.problems);
        else throw e;
      }
    }
    return true;
  };
  for (const [ref, source] of Object.entries(sources.profiles)) {
    const doc = parse(source.file, source.text);
    if (!doc) continue;
    const loaded = loadProfile(doc, exists, known);
    if ('problems' in loaded) problems.push(...loaded.problems);
    else {
      problems.push(...progressProblems(doc, loaded.profile, templates));
      problems.push(...refusalProblems(doc, loaded.profile, templates));
      profiles[ref] = loaded.profile;
    }
  }
  return profiles;
}

/** The keys allowed at a path of models.yaml, for "did you mean" hints on unknown keys. */
function knownModelsKeys(
  path: ReadonlyArray<string | number>,
  runtimeSchema: z.ZodObject<any>,
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
