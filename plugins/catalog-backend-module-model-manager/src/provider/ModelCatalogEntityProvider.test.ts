import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mockServices } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import type {
  EntityProviderConnection,
  EntityProviderMutation,
} from '@backstage/plugin-catalog-node';
import { ModelCatalogStore } from '@model-manager/plugin-model-manager-node';
import { ModelCatalogEntityProvider } from './ModelCatalogEntityProvider';
import { FIXTURE_CATALOG_DIR } from '@model-manager/plugin-model-manager-common/testUtils';

/** 9 models + 2 runtimes + 9 APIs in the repository's models.yaml. */
const ENTITIES_IN_REPO_CATALOG = 20;

function tempCatalog() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-provider-'));
  fs.cpSync(
    path.join(FIXTURE_CATALOG_DIR, 'runtimes'),
    path.join(dir, 'runtimes'),
    {
      recursive: true,
    },
  );
  fs.copyFileSync(
    path.join(FIXTURE_CATALOG_DIR, 'models.yaml'),
    path.join(dir, 'models.yaml'),
  );
  const modelsFile = path.join(dir, 'models.yaml');
  const original = fs.readFileSync(modelsFile, 'utf8');
  return {
    modelsFile,
    original,
    write: (text: string) => fs.writeFileSync(modelsFile, text),
  };
}

/** A catalog connection that records what the provider applies. */
function recordingConnection() {
  const mutations: EntityProviderMutation[] = [];
  const connection: EntityProviderConnection = {
    applyMutation: async mutation => {
      mutations.push(mutation);
    },
    refresh: async () => {},
  };
  const names = (i: number) => {
    const m = mutations[i];
    if (m.type !== 'full')
      throw new Error(`mutation ${i} is ${m.type}, not full`);
    return m.entities.map(e => `${e.entity.kind}:${e.entity.metadata.name}`);
  };
  /** A delta mutation as names: what it adds (or changes) and the refs it removes. */
  const delta = (i: number) => {
    const m = mutations[i];
    if (m.type !== 'delta')
      throw new Error(`mutation ${i} is ${m.type}, not delta`);
    for (const e of [...m.added, ...m.removed])
      expect(e.locationKey).toBe('model-manager-provider');
    return {
      added: m.added
        .map(e => `${e.entity.kind}:${e.entity.metadata.name}`)
        .sort(),
      removed: m.removed.map(e => ('entityRef' in e ? e.entityRef : '')).sort(),
    };
  };
  return { mutations, connection, names, delta };
}

/** Lets every pending promise callback run (the provider applies mutations asynchronously). */
const settle = () => new Promise(resolve => setImmediate(resolve));

async function start(modelsFile: string) {
  const logger = mockServices.logger.mock();
  const store = await ModelCatalogStore.create({
    location: { modelsFile },
    logger,
  });
  const provider = ModelCatalogEntityProvider.fromConfig(
    new ConfigReader({ modelManager: { modelsFile } }),
    { catalog: store, logger },
  );
  return { store, provider, logger };
}

describe('ModelCatalogEntityProvider', () => {
  it('is named model-manager', async () => {
    const { provider } = await start(tempCatalog().modelsFile);
    expect(provider.getProviderName()).toBe('model-manager');
  });

  it('applies one full mutation of the loaded catalog on connect', async () => {
    const { modelsFile } = tempCatalog();
    const { provider } = await start(modelsFile);
    const rec = recordingConnection();
    await provider.connect(rec.connection);
    expect(rec.mutations).toHaveLength(1);
    const mutation = rec.mutations[0];
    expect(mutation.type).toBe('full');
    if (mutation.type !== 'full') return;
    expect(mutation.entities).toHaveLength(ENTITIES_IN_REPO_CATALOG);
    for (const { entity, locationKey } of mutation.entities) {
      expect(locationKey).toBe('model-manager-provider');
      expect(entity.metadata.annotations).toMatchObject({
        'backstage.io/managed-by-location': `file:${modelsFile}`,
        'backstage.io/managed-by-origin-location': `file:${modelsFile}`,
      });
    }
    expect(rec.names(0)).toEqual(
      expect.arrayContaining([
        'Component:bge-m3',
        'Resource:vllm-runtime',
        'API:bge-m3-openai-api',
      ]),
    );
  });

  it('a broken models.yaml changes nothing; the next good one replaces the entities', async () => {
    const file = tempCatalog();
    const { store, provider, logger } = await start(file.modelsFile);
    const rec = recordingConnection();
    await provider.connect(rec.connection);
    expect(rec.mutations).toHaveLength(1);

    // An unknown runtime: the store keeps the last good catalog and tells nobody.
    file.write(
      file.original.replace(
        '    server:\n      runtime: vllm\n\n  bge-reranker-v2-m3:',
        '    server:\n      runtime: tgi\n\n  bge-reranker-v2-m3:',
      ),
    );
    expect((await store.reload()).ok).toBe(false);
    await settle();
    expect(rec.mutations).toHaveLength(1);
    expect(rec.names(0)).toHaveLength(ENTITIES_IN_REPO_CATALOG);
    expect(logger.error).toHaveBeenCalledWith(
      expect.stringContaining("unknown runtime 'tgi'"),
    );

    // Not YAML at all: still nothing.
    file.write('models: [');
    expect((await store.reload()).ok).toBe(false);
    await settle();
    expect(rec.mutations).toHaveLength(1);

    // A good file with a renamed model: a delta that adds the new name and removes the old one.
    file.write(
      file.original.replace('  bge-m3:\n', '  bge-m3-multilingual:\n'),
    );
    expect((await store.reload()).ok).toBe(true);
    await settle();
    expect(rec.mutations).toHaveLength(2);
    expect(rec.delta(1)).toEqual({
      added: [
        'API:bge-m3-multilingual-openai-api',
        'Component:bge-m3-multilingual',
      ],
      removed: ['api:default/bge-m3-openai-api', 'component:default/bge-m3'],
    });
  });

  it("a change to one model is a delta of that model's entities only", async () => {
    const file = tempCatalog();
    const { store, provider } = await start(file.modelsFile);
    const rec = recordingConnection();
    await provider.connect(rec.connection);
    expect(rec.mutations[0].type).toBe('full');

    // The description is on the Component only.
    const described = file.original.replace(
      'description: Multilingual embeddings served by vLLM.',
      'description: multilingual embeddings',
    );
    file.write(described);
    expect((await store.reload()).ok).toBe(true);
    await settle();
    expect(rec.mutations).toHaveLength(2);
    expect(rec.delta(1)).toEqual({ added: ['Component:bge-m3'], removed: [] });
    const mutation = rec.mutations[1];
    if (mutation.type === 'delta')
      expect(mutation.added[0].entity.metadata.description).toBe(
        'multilingual embeddings',
      );

    // The display name is on the Component and its API.
    file.write(
      described.replace('  bge-m3:\n', '  bge-m3:\n    display_name: BGE M3\n'),
    );
    expect((await store.reload()).ok).toBe(true);
    await settle();
    expect(rec.mutations).toHaveLength(3);
    expect(rec.delta(2)).toEqual({
      added: ['API:bge-m3-openai-api', 'Component:bge-m3'],
      removed: [],
    });

    // The same file again: nothing to apply.
    expect((await store.reload()).ok).toBe(true);
    await settle();
    expect(rec.mutations).toHaveLength(3);
  });

  it('with no good catalog at connect, applies nothing until models.yaml is fixed', async () => {
    const file = tempCatalog();
    file.write('models: {}\nruntimes: {}\nextra: 1\n');
    const { store, provider, logger } = await start(file.modelsFile);
    const rec = recordingConnection();
    await provider.connect(rec.connection);
    expect(rec.mutations).toHaveLength(0);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringMatching(
        /no valid models\.yaml loaded yet.*extra: unknown key 'extra'/,
      ),
    );

    file.write(file.original);
    expect((await store.reload()).ok).toBe(true);
    await settle();
    expect(rec.mutations).toHaveLength(1);
    expect(rec.names(0)).toHaveLength(ENTITIES_IN_REPO_CATALOG);
  });

  it('applies reloads in order, so the newest catalog is the last one applied', async () => {
    const file = tempCatalog();
    const { store, provider } = await start(file.modelsFile);
    const rec = recordingConnection();
    await provider.connect(rec.connection);
    file.write(file.original.replace('  bge-m3:\n', '  bge-m3-a:\n'));
    await store.reload();
    file.write(file.original.replace('  bge-m3:\n', '  bge-m3-b:\n'));
    await store.reload();
    await settle();
    expect(rec.mutations).toHaveLength(3);
    expect(rec.delta(2)).toEqual({
      added: ['API:bge-m3-b-openai-api', 'Component:bge-m3-b'],
      removed: [
        'api:default/bge-m3-a-openai-api',
        'component:default/bge-m3-a',
      ],
    });
  });

  it('logs, and keeps serving, when the catalog refuses a mutation', async () => {
    const file = tempCatalog();
    const { store, provider, logger } = await start(file.modelsFile);
    const applied: EntityProviderMutation[] = [];
    await provider.connect({
      applyMutation: async mutation => {
        applied.push(mutation);
        if (applied.length === 1) throw new Error('database is locked');
      },
      refresh: async () => {},
    });
    expect(logger.error).toHaveBeenCalledWith(
      expect.stringMatching(
        /could not update the catalog entities of .*models\.yaml; the previous ones stay: database is locked/,
      ),
    );
    // What the catalog holds is unknown after a refused mutation, so the next one is full.
    file.write(file.original.replace('  bge-m3:\n', '  bge-m3-a:\n'));
    await store.reload();
    await settle();
    expect(applied).toHaveLength(2);
    expect(applied[1].type).toBe('full');
    if (applied[1].type === 'full')
      expect(applied[1].entities).toHaveLength(ENTITIES_IN_REPO_CATALOG);
  });
});
