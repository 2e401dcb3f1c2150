import fs from 'node:fs';
import path from 'node:path';
import type { CatalogSources } from '../catalog/types';

/** The repository root (this file is plugins/model-manager-common/src/__testUtils__). */
export const REPO_ROOT = path.resolve(__dirname, '../../../..');

const read = (rel: string) =>
  fs.readFileSync(path.join(REPO_ROOT, rel), 'utf8');

/**
 * Catalog sources made of the repository's real runtimes/ (values, templates, serving runtime)
 * and the given models.yaml text (default: the repository's models.yaml).
 */
export function repoSources(
  overrides: {
    models?: string;
    values?: Record<string, string>;
    templates?: Record<string, string>;
    profiles?: Record<string, string>;
  } = {},
): CatalogSources {
  const templates: CatalogSources['templates'] = {};
  for (const file of fs
    .readdirSync(path.join(REPO_ROOT, 'runtimes/templates'))
    .filter(f => f.endsWith('.yaml'))
    .sort()) {
    templates[file] = {
      file: `runtimes/templates/${file}`,
      text: overrides.templates?.[file] ?? read(`runtimes/templates/${file}`),
    };
  }
  return {
    models: {
      file: 'models.yaml',
      text: overrides.models ?? read('models.yaml'),
    },
    values: {
      vllm: {
        file: 'runtimes/vllm/values.yaml',
        text: overrides.values?.vllm ?? read('runtimes/vllm/values.yaml'),
      },
      openvino: {
        file: 'runtimes/openvino/values.yaml',
        text:
          overrides.values?.openvino ?? read('runtimes/openvino/values.yaml'),
      },
    },
    profiles: Object.fromEntries(
      ['vllm', 'openvino'].map(name => [
        `${name}/profile.yaml`,
        {
          file: `runtimes/${name}/profile.yaml`,
          text:
            overrides.profiles?.[name] ?? read(`runtimes/${name}/profile.yaml`),
        },
      ]),
    ),
    templates,
    manifests: {
      'openvino/serving-runtime.yaml': {
        file: 'runtimes/openvino/serving-runtime.yaml',
        text: read('runtimes/openvino/serving-runtime.yaml'),
      },
    },
  };
}

/** The repository's runtimes: section, for tests that write their own models:. */
export const RUNTIMES_SECTION = (() => {
  const text = read('models.yaml');
  return text.slice(text.indexOf('\nruntimes:') + 1);
})();

/** A models.yaml made of the given models: section and the repository's runtimes: section. */
export function modelsYaml(models: string): string {
  return `models:\n${models.replace(/^\n/, '')}\n${RUNTIMES_SECTION}`;
}

/**
 * Catalog sources read from a folder of the repository holding a models.yaml and a runtimes/
 * folder (e.g. `examples/extra-runtime`), the way the node loader reads them: each runtime's
 * values.yaml and profile.yaml, every template under runtimes/templates/, and the other .yaml
 * files of runtime folders by `<runtime>/<file>`.
 */
export function dirSources(rel: string): CatalogSources {
  const root = path.join(REPO_ROOT, rel);
  const runtimes = path.join(root, 'runtimes');
  const file = (p: string) => ({
    file: path.relative(root, p),
    text: fs.readFileSync(p, 'utf8'),
  });
  const sources: CatalogSources = {
    models: file(path.join(root, 'models.yaml')),
    values: {},
    profiles: {},
    templates: {},
    manifests: {},
  };
  for (const name of fs.readdirSync(runtimes).sort()) {
    const dir = path.join(runtimes, name);
    for (const f of fs.readdirSync(dir).sort()) {
      if (!f.endsWith('.yaml')) continue;
      const source = file(path.join(dir, f));
      if (name === 'templates') sources.templates[f] = source;
      else if (f === 'values.yaml') sources.values[name] = source;
      else if (f === 'profile.yaml') sources.profiles[`${name}/${f}`] = source;
      else sources.manifests[`${name}/${f}`] = source;
    }
  }
  return sources;
}
