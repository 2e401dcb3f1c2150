import { mockServices } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import type { RenderedObject } from '@model-manager/plugin-model-manager-common';
import { KubeApiTestServer } from '@model-manager/kube-api-test-server';
import { testClustersConfig } from '@model-manager/test-harness';
import { ClusterRegistry } from './ClusterRegistry';
import { ServerSideApplier } from './ServerSideApplier';

const configMap = (i: number): RenderedObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  name: `cm-${i}`,
  namespace: 'default',
  applyPolicy: 'apply',
  source: 'test',
  manifest: {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${i}`, namespace: 'default' },
    data: { i: String(i) },
  },
});

describe('ServerSideApplier keeps its connections to a cluster alive', () => {
  let kube: KubeApiTestServer;
  let applier: ServerSideApplier;

  beforeAll(async () => {
    kube = await KubeApiTestServer.start({ namespaces: ['default'] });
    const config = new ConfigReader({
      kubernetes: testClustersConfig([{ name: 'local', url: kube.url }]),
    });
    applier = ServerSideApplier.create({
      clusters: ClusterRegistry.fromConfig(config),
      logger: mockServices.logger.mock(),
    });
  }, 120_000);

  afterAll(async () => {
    await kube?.stop();
  });

  it('sends many requests, one after the other, over one connection (client-node opens one per request by itself)', async () => {
    // The first request also reads the API's discovery document.
    await applier.read('local', configMap(0));
    const connectionsBefore = kube.connectionCount;
    const requestsBefore = kube.requestCount;
    for (let i = 0; i < 10; i++) {
      const outcome = await applier.apply('local', {
        objects: [configMap(i)],
        dryRun: false,
        force: false,
      });
      expect(outcome.results[0].action).toBe('created');
    }
    // Each single-object apply reads, then applies: 20 requests.
    expect(kube.requestCount - requestsBefore).toBe(20);
    expect(kube.connectionCount - connectionsBefore).toBe(0);
  });

  it('opens at most as many connections as requests in flight, and reuses them afterwards', async () => {
    const connectionsBefore = kube.connectionCount;
    await Promise.all(
      [10, 11, 12, 13].map(i =>
        applier.apply('local', {
          objects: [configMap(i)],
          dryRun: false,
          force: false,
        }),
      ),
    );
    const afterConcurrent = kube.connectionCount - connectionsBefore;
    expect(afterConcurrent).toBeLessThanOrEqual(4);
    for (let i = 0; i < 4; i++) {
      await applier.apply('local', {
        objects: [configMap(i)],
        dryRun: false,
        force: false,
      });
    }
    expect(kube.connectionCount - connectionsBefore).toBe(afterConcurrent);
  });

  it('keeps a separate pool per impersonated user', async () => {
    const connectionsBefore = kube.connectionCount;
    const live = await applier.read('local', configMap(0), 'admin');
    expect(live?.metadata?.name).toBe('cm-0');
    await applier.read('local', configMap(1), 'admin');
    expect(kube.connectionCount - connectionsBefore).toBe(1);
  });
});
