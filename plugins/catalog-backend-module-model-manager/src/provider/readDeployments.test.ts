import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mockServices } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import type { EntityProviderMutation } from '@backstage/plugin-catalog-node';
import type { FleetTarget } from '@model-manager/plugin-model-manager-common';
import { ModelCatalogStore } from '@model-manager/plugin-model-manager-node';
import { ModelCatalogEntityProvider } from './ModelCatalogEntityProvider';
import { deploymentsOf, type DeploymentReader } from './readDeployments';
import type { ModelDeployments } from './types';
import { FIXTURE_CATALOG_DIR } from '@model-manager/plugin-model-manager-common/testUtils';

const QWEN = 'qwen2-5-7b-instruct';

const target = (model: string, cluster: string, endpoint?: string) =>
  ({ model, cluster, namespace: 'models', endpoint } as FleetTarget);

describe('deploymentsOf', () => {
  it('keeps the targets with an http(s) URL, per model, in cluster and namespace order', () => {
    expect(
      deploymentsOf({
        items: [
          target(QWEN, 'prod', 'http://qwen.prod.example.com'),
          target(QWEN, 'local', 'http://qwen.local.example.com'),
          target('bge-m3', 'local'),
          target('bge-m3', 'prod', 'not-a-url'),
        ],
      }),
    ).toEqual({
      [QWEN]: [
        {
          cluster: 'local',
          namespace: 'models',
          url: 'http://qwen.local.example.com',
        },
        {
          cluster: 'prod',
          namespace: 'models',
          url: 'http://qwen.prod.example.com',
        },
      ],
    });
  });
});

describe('ModelCatalogEntityProvider.refreshDeployments', () => {
  async function start(read: DeploymentReader['read']) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-deployments-'));
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
    const logger = mockServices.logger.mock();
    const store = await ModelCatalogStore.create({
      location: { modelsFile },
      logger,
    });
    const provider = ModelCatalogEntityProvider.fromConfig(
      new ConfigReader({ modelManager: { modelsFile } }),
      {
        catalog: store,
        logger,
        deployments: { read },
      },
    );
    const mutations: EntityProviderMutation[] = [];
    await provider.connect({
      applyMutation: async m => void mutations.push(m),
      refresh: async () => {},
    });
    const servers = (i: number) => {
      const m = mutations[i];
      const api = (m.type === 'full' ? m.entities : m.added).find(
        e => e.entity.metadata.name === `${QWEN}-openai-api`,
      )!.entity;
      return JSON.parse(api.spec!.definition as string).servers;
    };
    return { provider, logger, mutations, servers };
  }

  it('provides the entities again when where the models are deployed changed, and only then', async () => {
    let deployments: ModelDeployments = {};
    const { provider, mutations, servers } = await start(
      async () => deployments,
    );
    expect(servers(0)).toBeUndefined();

    await provider.refreshDeployments();
    expect(mutations).toHaveLength(1); // nothing changed

    deployments = {
      [QWEN]: [
        {
          cluster: 'local',
          namespace: 'models',
          url: 'http://qwen.models.example.com',
        },
      ],
    };
    await provider.refreshDeployments();
    expect(mutations).toHaveLength(2);
    // Only the API of the model that got deployed changes.
    const delta = mutations[1];
    expect(delta.type).toBe('delta');
    if (delta.type === 'delta') {
      expect(delta.added.map(e => e.entity.metadata.name)).toEqual([
        `${QWEN}-openai-api`,
      ]);
      expect(delta.removed).toEqual([]);
    }
    expect(servers(1)).toEqual([
      {
        url: 'http://qwen.models.example.com',
        description:
          'deployed on cluster local, namespace models (the URL KServe reports)',
      },
    ]);

    await provider.refreshDeployments();
    expect(mutations).toHaveLength(2);
  });

  it('a failed read keeps the servers and is logged once', async () => {
    const { provider, mutations, logger } = await start(async () => {
      throw new Error(
        'GET http://localhost/api/model-manager/fleet answered 503 Service Unavailable',
      );
    });
    await provider.refreshDeployments();
    await provider.refreshDeployments();
    expect(mutations).toHaveLength(1);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.stringMatching(
        /could not read where models are deployed.*answered 503/,
      ),
    );
  });
});
