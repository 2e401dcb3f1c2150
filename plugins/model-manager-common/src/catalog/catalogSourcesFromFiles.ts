import type { CatalogSources, SourceText } from './types';

/** What a file of a runtimes folder is to the catalog. */
export type RuntimesFileRole = 'values' | 'profile' | 'template' | 'manifest';

const YAML = /\.ya?ml$/;

/**
 * The role of a file of a runtimes folder, from its path relative to that folder
 * (`vllm/values.yaml`, `templates/inference-service.yaml`), or undefined for a file the catalog
 * does not read (not YAML, or not directly inside a runtime folder). The layout:
 *
 * - `<runtime>/values.yaml`: the runtime's plumbing and defaults;
 * - `<runtime>/profile.yaml`: the engine profile;
 * - `templates/<file>.yaml`: shared templates (a profile names the ones its engine renders);
 * - any other `<runtime>/<file>.yaml`: a manifest named by `serving_runtime_manifest`, or a
 *   template of the runtime's own folder a profile names.
 */
export function runtimesFileRole(
  relPath: string,
): RuntimesFileRole | undefined {
  const parts = relPath.split('/');
  if (parts.length !== 2 || !YAML.test(parts[1])) return undefined;
  const [folder, file] = parts;
  if (folder === 'templates') return 'template';
  if (file === 'values.yaml') return 'values';
  if (file === 'profile.yaml') return 'profile';
  return 'manifest';
}

/**
 * Catalog sources from models.yaml and the files of a runtimes folder, keyed by their path relative
 * to that folder. The one place the runtimes folder's layout is read: the node loader and the
 * tests list and read the files (each its own way: async with size and UTF-8 checks, or plain
 * reads), and this sorts them into {@link CatalogSources}. Files with no role are ignored; keys come
 * out in path order, whatever order the files were given in.
 */
export function catalogSourcesFromFiles(
  models: SourceText,
  runtimesFiles: Record<string, SourceText>,
): CatalogSources {
  const sources: CatalogSources = {
    models,
    values: {},
    profiles: {},
    templates: {},
    manifests: {},
  };
  for (const relPath of Object.keys(runtimesFiles).sort()) {
    const source = runtimesFiles[relPath];
    const [folder, file] = relPath.split('/');
    switch (runtimesFileRole(relPath)) {
      case 'values':
        sources.values[folder] = source;
        break;
      case 'profile':
        sources.profiles[relPath] = source;
        break;
      case 'template':
        sources.templates[file] = source;
        break;
      case 'manifest':
        sources.manifests[relPath] = source;
        break;
      default:
    }
  }
  return sources;
}
