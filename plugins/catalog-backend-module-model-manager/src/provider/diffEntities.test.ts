import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Catalog } from '@model-manager/plugin-model-manager-common';
import { loadCatalog } from '@model-manager/plugin-model-manager-node';
import { diffEntities, entityInputs, unchangedModels } from './diffEntities';
import { buildEntities } from './entities';
import type { EntityOptions, ModelDeployments } from './types';
import { FIXTURE_CATALOG_DIR } from '@model-manager/plugin-model-manager-common/testUtils';

const ORIGINAL = fs.readFileSync(
  path.join(FIXTURE_CATALOG_DIR, 'models.yaml'),
  'utf8',
);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-diff-'));
fs.cpSync(
  path.join(FIXTURE_CATALOG_DIR, 'runtimes'),
  path.join(dir, 'runtimes'),
  {
    recursive: true,
  },
);
const modelsFile = path.join(dir, 'models.yaml');
const OPTIONS: EntityOptions = {
  modelsFile,
  defaultOwner: 'group:default/ml-platform',
  defaultLifecycle: 'production',
  apiEntities: true,
  gateways: [],
};

async function load(text: string): Promise<Catalog> {
  fs.writeFileSync(modelsFile, text);
  return loadCatalog({ modelsFile });
}

/** Builds `catalog` the way the provider does after providing `previous`. */
function next(
  previous: ReturnType<typeof diffEntities>['provided'] | undefined,
  catalog: Catalog,
  deployments: ModelDeployments = {},
) {
  const inputs = entityInputs(catalog, deployments);
  const built: string[] = [];
  const skip = unchangedModels(previous, inputs);
  const { entities } = buildEntities(catalog, OPTIONS, deployments, m => {
    const unchanged = skip?.(m) ?? false;
    if (!unchanged) built.push(m.name);
    return unchanged;
  });
  const delta = diffEntities(previous, catalog, inputs, entities);
  return {
    ...delta,
    built,
    names: delta.added.map(e => `${e.kind}:${e.metadata.name}`).sort(),
  };
}

const deployed: ModelDeployments = {
  'bge-m3': [{ cluster: 'local', namespace: 'models', url: 'http://bge' }],
};

const rules: Array<{
  rule: string;
  file: string;
  deployments?: ModelDeployments;
  built: string[] | 'all';
  added: string[];
  removed: string[];
}> = [
  {
    rule: 'the same file: no model built again, nothing to apply',
    file: ORIGINAL,
    built: [],
    added: [],
    removed: [],
  },
  {
    rule: "a model's description: that model built again, only its Component",
    file: ORIGINAL.replace(
      'description: Multilingual embeddings served by vLLM.',
      'description: changed',
    ),
    built: ['bge-m3'],
    added: ['Component:bge-m3'],
    removed: [],
  },
  {
    rule: "a model's display name: its Component and its API",
    file: ORIGINAL.replace('  bge-m3:\n', '  bge-m3:\n    display_name: BGE\n'),
    built: ['bge-m3'],
    added: ['API:bge-m3-openai-api', 'Component:bge-m3'],
    removed: [],
  },
  {
    rule: 'a renamed model: added under the new name, removed under the old',
    file: ORIGINAL.replace('  bge-m3:\n', '  bge-m4:\n'),
    built: ['bge-m4'],
    added: ['API:bge-m4-openai-api', 'Component:bge-m4'],
    removed: ['api:default/bge-m3-openai-api', 'component:default/bge-m3'],
  },
  {
    rule: 'where one model is deployed: only its API (its servers)',
    file: ORIGINAL,
    deployments: deployed,
    built: ['bge-m3'],
    added: ['API:bge-m3-openai-api'],
    removed: [],
  },
  {
    rule: "a runtime's default version: every model built again, only what changed applied",
    file: ORIGINAL.replace(
      'default_version: "0.24.0"',
      'default_version: "0.19.1"',
    ),
    built: 'all',
    added: expect.arrayContaining([
      'Resource:vllm-runtime',
      'Component:qwen2-5-7b-instruct',
      'API:qwen2-5-7b-instruct-openai-api',
    ]) as unknown as string[],
    removed: [],
  },
];

describe('diffEntities', () => {
  let original: Catalog;
  beforeAll(async () => {
    original = await load(ORIGINAL);
  });

  it('from nothing provided: every model built, every entity added', () => {
    const first = next(undefined, original);
    expect(first.built).toEqual(Object.keys(original.models));
    expect(first.added).toHaveLength(20);
    expect(first.removed).toEqual([]);
  });

  it.each(rules)(
    '$rule',
    async ({ file, deployments, built, added, removed }) => {
      const first = next(undefined, original);
      const catalog = await load(file);
      const delta = next(first.provided, catalog, deployments);
      expect(delta.built).toEqual(
        built === 'all' ? Object.keys(catalog.models) : built,
      );
      expect(delta.names).toEqual(added);
      expect(delta.removed.sort()).toEqual(removed);
      // What is provided afterwards is exactly the new catalog: the same again changes nothing.
      const again = next(delta.provided, catalog, deployments);
      expect(again).toMatchObject({ built: [], added: [], removed: [] });
      // ... and is what a full build of it would provide.
      expect([...again.provided.entities].sort()).toEqual(
        [...next(undefined, catalog, deployments).provided.entities].sort(),
      );
    },
  );
});
