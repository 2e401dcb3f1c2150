import path from 'node:path';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import catalogPlugin from '@backstage/plugin-catalog-backend';
import request from 'supertest';
import catalogModuleModelManager from './index';
import { FIXTURE_CATALOG_DIR } from '@model-manager/plugin-model-manager-common/testUtils';

describe('catalog module model-manager', () => {
  it('puts models, runtimes and APIs in the real catalog, with their relations', async () => {
    const { server } = await startTestBackend({
      features: [
        catalogPlugin,
        catalogModuleModelManager,
        mockServices.rootConfig.factory({
          data: {
            modelManager: {
              modelsFile: path.join(FIXTURE_CATALOG_DIR, 'models.yaml'),
              runtimesDir: path.join(FIXTURE_CATALOG_DIR, 'runtimes'),
              watch: false,
            },
            catalog: {
              rules: [
                {
                  allow: [
                    'Component',
                    'API',
                    'Resource',
                    'Location',
                    'System',
                    'Group',
                    'User',
                  ],
                },
              ],
            },
          },
        }),
      ],
    });
    const auth = mockCredentials.user.header();
    const get = (ref: string) =>
      request(server)
        .get(`/api/catalog/entities/by-name/${ref}`)
        .set('Authorization', auth);

    // The catalog processes and stitches provided entities in the background: ask until the
    // entity is there with its relations (jest's timeout bounds the wait).
    const stitched = async (ref: string, relations: number) => {
      for (;;) {
        const res = await get(ref);
        if (
          res.status === 200 &&
          (res.body.relations?.length ?? 0) >= relations
        )
          return res.body;
        expect([200, 404]).toContain(res.status);
        await new Promise(resolve => setImmediate(resolve));
      }
    };

    // ownedBy + dependsOn + providesApi
    const model = await stitched('component/default/llama-3-1-8b-instruct', 3);
    expect(model.status?.items ?? []).toEqual([]); // no processing errors
    expect(model.metadata.annotations).toMatchObject({
      'backstage.io/kubernetes-id': 'llama-3-1-8b-instruct',
      'model-manager.io/server-version': '0.19.1',
      'backstage.io/managed-by-location': `file:${path.join(
        FIXTURE_CATALOG_DIR,
        'models.yaml',
      )}`,
    });
    expect(model.spec).toMatchObject({
      type: 'model-server',
      lifecycle: 'production',
      owner: 'group:default/ml-platform',
    });
    expect(model.relations).toEqual(
      expect.arrayContaining([
        { type: 'ownedBy', targetRef: 'group:default/ml-platform' },
        { type: 'dependsOn', targetRef: 'resource:default/vllm-runtime' },
        {
          type: 'providesApi',
          targetRef: 'api:default/llama-3-1-8b-instruct-openai-api',
        },
      ]),
    );

    const runtime = await stitched('resource/default/vllm-runtime', 2);
    expect(runtime.metadata.annotations).toMatchObject({
      'model-manager.io/versions': '0.24.0,0.19.1',
      'model-manager.io/default-version': '0.24.0',
    });
    expect(runtime.relations).toEqual(
      expect.arrayContaining([
        {
          type: 'dependencyOf',
          targetRef: 'component:default/llama-3-1-8b-instruct',
        },
      ]),
    );

    const api = await stitched(
      'api/default/bge-small-en-v1-5-ov-openai-api',
      2,
    );
    expect(Object.keys(JSON.parse(api.spec.definition).paths)).toEqual([
      '/v1/embeddings',
    ]);
    expect(api.relations).toEqual(
      expect.arrayContaining([
        {
          type: 'apiProvidedBy',
          targetRef: 'component:default/bge-small-en-v1-5-ov',
        },
      ]),
    );
  }, 60_000);
});
