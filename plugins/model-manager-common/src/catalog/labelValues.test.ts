import fs from 'node:fs';
import path from 'node:path';
import { CatalogError, formatProblem } from '../source/problems';
import {
  FIXTURE_CATALOG_DIR,
  fixtureSources,
} from '../testUtils/catalogFixtures';
import { buildCatalog } from './buildCatalog';

const MODELS = fs.readFileSync(
  path.join(FIXTURE_CATALOG_DIR, 'models.yaml'),
  'utf8',
);

/**
 * Values that become label values on a model's objects (model-manager.io/server-version,
 * /category, /runtime) are checked at load time as kube-apiserver checks label values
 * (apimachinery validation.go IsValidLabelValue: at most 63 characters,
 * `(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?`), with file:line:col.
 */
const rules: Array<{ rule: string; from: string; to: string; error: RegExp }> =
  [
    {
      rule: 'a server version key with + is refused',
      from: '      "0.24.0":\n',
      to: '      "0.11.0+cpu":\n',
      error:
        /^models\.yaml:\d+:\d+: runtimes\.vllm\.versions\["0\.11\.0\+cpu"\]: the server version key '0\.11\.0\+cpu' becomes a Kubernetes label value/,
    },
    {
      rule: 'a server version key of 64 characters is refused',
      from: '      "0.24.0":\n',
      to: `      "${'1'.repeat(64)}":\n`,
      error: /has 64 characters, but it becomes a Kubernetes label value/,
    },
    {
      rule: 'a server version key starting with - is refused',
      from: '      "0.24.0":\n',
      to: '      "-rc1":\n',
      error: /the server version key '-rc1' becomes a Kubernetes label value/,
    },
    {
      rule: 'a category name with a space is refused',
      from: '      vlm:    {',
      to: '      "my cat":    {',
      error:
        /^models\.yaml:\d+:\d+: runtimes\.vllm\.categories\["my cat"\]: the category name 'my cat' becomes a Kubernetes label value/,
    },
    {
      rule: "a model's category starting with _ is refused",
      from: '    category: vlm\n',
      to: '    category: _x\n',
      error:
        /^models\.yaml:\d+:\d+: models\.qwen2-5-vl-7b-instruct\.category: the category '_x' becomes a Kubernetes label value/,
    },
  ];

describe('label values are checked at load time', () => {
  it.each(rules)('$rule', ({ from, to, error }) => {
    expect(MODELS).toContain(from);
    let thrown: unknown;
    try {
      buildCatalog(fixtureSources({ models: MODELS.replace(from, to) }));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(CatalogError);
    const messages = (thrown as CatalogError).problems.map(formatProblem);
    expect(messages).toContainEqual(expect.stringMatching(error));
  });

  it('the shipped catalog passes', () => {
    expect(() => buildCatalog(fixtureSources())).not.toThrow();
  });
});
