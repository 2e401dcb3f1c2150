import { buildCatalog } from '../catalog/buildCatalog';
import { resolveServer } from '../resolver/resolveServer';
import { CatalogError, formatProblem } from '../source/problems';
import { modelsYaml, fixtureSources } from '../testUtils/catalogFixtures';

/**
 * An env value YAML reads as a number or boolean is refused with "quote it", the rule `text()`
 * applies to version, model_id and image: the pod must get what was written, and YAML's reading
 * re-spells it (YAML 1.2 core schema, as js-yaml CORE_SCHEMA and the `yaml` package read it).
 */
const model = (value: string) =>
  modelsYaml(`
  m:
    model_id: org/m
    category: llm
    server:
      runtime: vllm
      env:
        X: ${value}
`);

const refused = [
  '0x10',
  '1e3',
  '1.0',
  '017',
  'True',
  'false',
  '8',
  '.inf',
  '.nan',
];
const kept: Array<[string, string]> = [
  ['"0x10"', '0x10'],
  ["'1.0'", '1.0'],
  ['"True"', 'True'],
  ['abc', 'abc'],
  ['16Gi', '16Gi'],
];

describe('env values written as YAML numbers or booleans', () => {
  it.each(refused)(
    'X: %s is refused with "quote it" and its file:line:col',
    value => {
      let thrown: unknown;
      try {
        buildCatalog(fixtureSources({ models: model(value) }));
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(CatalogError);
      expect(
        (thrown as CatalogError).problems.map(formatProblem),
      ).toContainEqual(
        expect.stringMatching(
          /^models\.yaml:\d+:\d+: models\.m\.server\.env\.X: env values must be strings, and YAML read this one as the (number|boolean) .*; quote it as the engine should get it/,
        ),
      );
    },
  );

  it.each(kept)('X: %s reaches the pod as %s', (written, value) => {
    const catalog = buildCatalog(fixtureSources({ models: model(written) }));
    const env = resolveServer(catalog, 'm').env.find(e => e.name === 'X');
    expect(env?.value).toBe(value);
  });
});

describe('an env: or args: key with nothing under it', () => {
  const empty = modelsYaml(`
  m:
    model_id: org/m
    category: llm
    server:
      runtime: vllm
      env:
      args:
`);

  it('is refused as empty (YAML reads it as null), not as "a Kubernetes env list", with the fix', () => {
    let thrown: unknown;
    try {
      buildCatalog(fixtureSources({ models: empty }));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(CatalogError);
    const lines = (thrown as CatalogError).problems.map(formatProblem);
    const at = (key: string) =>
      empty.split('\n').findIndex(l => l.trim() === `${key}:`) + 1;
    expect(lines).toEqual([
      `models.yaml:${at(
        'env',
      )}:11: models.m.server.env: env is empty: YAML reads \`env:\` with nothing under it as null; write the variables under it (NAME: value), or remove the key`,
      `models.yaml:${at(
        'args',
      )}:12: models.m.server.args: args is empty: YAML reads \`args:\` with nothing under it as null; list the flags under it (- --max-model-len=8192), or remove the key`,
    ]);
  });
});
