import fs from 'node:fs';
import path from 'node:path';
import { catalogSourcesFromFiles } from '../catalog/catalogSourcesFromFiles';
import type { CatalogSources, SourceText } from '../catalog/types';

/** The repository root (this file is plugins/model-manager-common/src/testUtils). */
export const REPO_ROOT = path.resolve(__dirname, '../../../..');

/**
 * The test catalog: a models.yaml and a runtimes/ folder of its own (two engines, vllm and
 * openvino, and nine models), so rule tests do not change when a user adds an engine or a model to
 * the shipped `models.yaml` and `runtimes/`. Tests that are about the shipped catalog read it with
 * {@link shippedSources} and assert properties, never counts.
 */
export const FIXTURE_CATALOG_DIR = path.join(__dirname, 'catalog');

/**
 * A catalog of one made-up engine, `fixtureb` (fixture-engine-b/README.md): two Jobs of which the
 * second reports progress, and categories of its own names. Tests read it to show that what a
 * profile declares is followed with no code change.
 */
export const FIXTURE_ENGINE_B_DIR = path.join(__dirname, 'fixture-engine-b');

/**
 * Catalog sources read from a folder holding a models.yaml and a runtimes/ folder (absolute, or
 * relative to the repository root, e.g. `examples/extra-runtime`), the way the node loader reads
 * them: every file of runtimes/<folder>/ sorted by {@link catalogSourcesFromFiles}. File names in
 * messages are relative to that folder (`models.yaml`, `runtimes/vllm/values.yaml`).
 */
export function dirSources(dir: string): CatalogSources {
  const root = path.resolve(REPO_ROOT, dir);
  const runtimes = path.join(root, 'runtimes');
  const read = (p: string): SourceText => ({
    file: path.relative(root, p),
    text: fs.readFileSync(p, 'utf8'),
  });
  const files: Record<string, SourceText> = {};
  for (const folder of fs.readdirSync(runtimes, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    for (const file of fs.readdirSync(path.join(runtimes, folder.name))) {
      files[`${folder.name}/${file}`] = read(
        path.join(runtimes, folder.name, file),
      );
    }
  }
  return catalogSourcesFromFiles(read(path.join(root, 'models.yaml')), files);
}

/** The shipped catalog: the repository's models.yaml and runtimes/. */
export function shippedSources(): CatalogSources {
  return dirSources(REPO_ROOT);
}

/**
 * Catalog sources of the test catalog ({@link FIXTURE_CATALOG_DIR}), with the given files
 * replaced or added: `models` (models.yaml's text), `values` and `profiles` by runtime name,
 * `templates` by file name under runtimes/templates/.
 */
export function fixtureSources(
  overrides: {
    models?: string;
    values?: Record<string, string>;
    templates?: Record<string, string>;
    profiles?: Record<string, string>;
  } = {},
): CatalogSources {
  const sources = dirSources(FIXTURE_CATALOG_DIR);
  const put = (
    into: Record<string, SourceText>,
    key: string,
    file: string,
    text: string,
  ) => {
    into[key] = { file: into[key]?.file ?? file, text };
  };
  if (overrides.models !== undefined)
    sources.models = { ...sources.models, text: overrides.models };
  for (const [name, text] of Object.entries(overrides.values ?? {}))
    put(sources.values, name, `runtimes/${name}/values.yaml`, text);
  for (const [name, text] of Object.entries(overrides.profiles ?? {}))
    put(
      sources.profiles,
      `${name}/profile.yaml`,
      `runtimes/${name}/profile.yaml`,
      text,
    );
  for (const [file, text] of Object.entries(overrides.templates ?? {}))
    put(sources.templates, file, `runtimes/templates/${file}`, text);
  return sources;
}

/** A file of the test catalog, by its path under {@link FIXTURE_CATALOG_DIR}. */
export function fixtureFile(rel: string): string {
  return fs.readFileSync(path.join(FIXTURE_CATALOG_DIR, rel), 'utf8');
}

/** The test catalog's runtimes: section, for tests that write their own models:. */
export const RUNTIMES_SECTION = (() => {
  const text = fixtureFile('models.yaml');
  return text.slice(text.indexOf('\nruntimes:') + 1);
})();

/** A models.yaml made of the given models: section and the test catalog's runtimes: section. */
export function modelsYaml(models: string): string {
  return `models:\n${models.replace(/^\n/, '')}\n${RUNTIMES_SECTION}`;
}
