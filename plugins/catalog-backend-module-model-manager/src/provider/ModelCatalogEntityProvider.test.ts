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

const REPO = path.resolve(__dirname, '../../../..');
/** 9 models + 2 runtimes + 9 APIs in the repository's models.yaml. */
const ENTITIES_IN_REPO_CATALOG = 20;

function tempCatalog() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-provider-'));
  fs.cpSync(path.join(REPO, 'runtimes'), path.join(dir, 'runtimes'), {
    recursive: true,
  });
  fs.copyFileSync(
    path.join(REPO, 'models.yaml'),
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
  return { mutations, connection, names };
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

    // A good file with a renamed model: one new full mutation without the old name.
    file.write(
      file.original.replace('  bge-m3:\n', '  bge-m3-multilingual:\n'),
    );
    expect((await store.reload()).ok).toBe(true);
    await settle();
    expect(rec.mutations).toHaveLength(2);
    expect(rec.names(1)).toHaveLength(ENTITIES_IN_REPO_CATALOG);
    expect(rec.names(1)).toEqual(
      expect.arrayContaining([
        'Component:bge-m3-multilingual',
        'API:bge-m3-multilingual-openai-api',
      ]),
    );
    expect(rec.names(1)).not.toContain('Component:bge-m3');
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
    expect(rec.names(2)).toContain('Component:bge-m3-b');
    expect(rec.names(2)).not.toContain('Component:bge-m3-a');
  });

  it('logs, and keeps serving, when the catalog refuses a mutation', async () => {
    const file = tempCatalog();
    const { store, provider, logger } = await start(file.modelsFile);
    let calls = 0;
    await provider.connect({
      applyMutation: async () => {
        calls += 1;
        if (calls === 1) throw new Error('database is locked');
      },
      refresh: async () => {},
    });
    expect(logger.error).toHaveBeenCalledWith(
      expect.stringMatching(
        /could not update the catalog entities of .*models\.yaml; the previous ones stay: database is locked/,
      ),
    );
    await store.reload();
    await settle();
    expect(calls).toBe(2);
  });
});
