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
