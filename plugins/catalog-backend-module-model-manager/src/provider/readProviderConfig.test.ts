import path from 'node:path';
import { ConfigReader } from '@backstage/config';
import { readProviderConfig } from './readProviderConfig';

const base = { modelManager: { modelsFile: '../../models.yaml' } };

describe('readProviderConfig', () => {
  it('defaults: owner group:default/ml-platform, lifecycle production, API entities on', () => {
    expect(readProviderConfig(new ConfigReader(base))).toEqual({
      modelsFile: path.resolve('../../models.yaml'),
      defaultOwner: 'group:default/ml-platform',
      defaultLifecycle: 'production',
      apiEntities: true,
      gateways: [],
    });
  });

  it("reads the clusters' gateways (modelManager.kubernetes.clusters.<name>.gatewayBaseUrl)", () => {
    const config = new ConfigReader({
      modelManager: {
        ...base.modelManager,
        kubernetes: {
          clusters: {
            local: { gatewayBaseUrl: 'https://ai.example.com/' },
            other: {},
          },
        },
      },
    });
    expect(readProviderConfig(config).gateways).toEqual([
      { cluster: 'local', baseUrl: 'https://ai.example.com' },
    ]);
  });

  it('reads catalog.providers.modelManager', () => {
    const config = new ConfigReader({
      ...base,
      catalog: {
        providers: {
          modelManager: {
            defaultOwner: 'group:default/ai',
            defaultLifecycle: 'experimental',
            apiEntities: false,
          },
        },
      },
    });
    expect(readProviderConfig(config)).toMatchObject({
      defaultOwner: 'group:default/ai',
      defaultLifecycle: 'experimental',
      apiEntities: false,
    });
  });

  it.each([
    {
      rule: 'modelManager.modelsFile is required',
      data: {},
      error: /set modelManager\.modelsFile in app-config\.yaml/,
    },
    {
      rule: 'defaultOwner must be an entity reference',
      data: {
        ...base,
        catalog: { providers: { modelManager: { defaultOwner: 'group:a:b' } } },
      },
      error:
        /^catalog\.providers\.modelManager\.defaultOwner: 'group:a:b' is not an entity reference/,
    },
    {
      rule: 'defaultLifecycle must not be empty',
      data: {
        ...base,
        catalog: { providers: { modelManager: { defaultLifecycle: ' ' } } },
      },
      error:
        /^catalog\.providers\.modelManager\.defaultLifecycle: must not be empty/,
    },
    {
      rule: 'a gateway base URL must be an http(s) URL',
      data: {
        modelManager: {
          ...base.modelManager,
          kubernetes: { clusters: { local: { gatewayBaseUrl: '<gateway>' } } },
        },
      },
      error:
        /^modelManager\.kubernetes\.clusters\.local\.gatewayBaseUrl: '<gateway>' is not an http\(s\) URL/,
    },
    {
      rule: 'apiEntities must be a boolean',
      data: {
        ...base,
        catalog: { providers: { modelManager: { apiEntities: 'maybe' } } },
      },
      error: /catalog\.providers\.modelManager\.apiEntities/,
    },
  ])('$rule', ({ data, error }) => {
    expect(() => readProviderConfig(new ConfigReader(data))).toThrow(error);
  });
});
