import { mockServices } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import { KubeApiTestServer } from '@model-manager/kube-api-test-server';
import { testClustersConfig } from '@model-manager/test-harness';
import { ClusterRegistry } from './ClusterRegistry';
import { ServerSideApplier } from './ServerSideApplier';

const SELECTOR = 'app.kubernetes.io/managed-by=model-manager';
const labels = { 'app.kubernetes.io/managed-by': 'model-manager' };
const LLM = {
  apiVersion: 'serving.kserve.io/v1alpha2',
  kind: 'LLMInferenceService',
};

// More objects than one page (500): the list must follow the server's continue tokens.
describe('ServerSideApplier.list reads every page', () => {
  let kube: KubeApiTestServer;
  let applier: ServerSideApplier;

  beforeAll(async () => {
    kube = await KubeApiTestServer.start({ namespaces: ['default', 'models'] });
    for (let i = 0; i < 620; i++) {
      const namespace = i % 2 === 0 ? 'models' : 'default';
      kube.store.put({
        ...LLM,
        metadata: { name: `m-${i}`, namespace, labels },
        spec: { model: { uri: `hf://org/m-${i}` } },
      });
      kube.store.put({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${i}`, namespace, labels },
        data: { i: String(i) },
      });
    }
    // Not ours: left out by the label selector.
    kube.store.put({
      ...LLM,
      metadata: { name: 'theirs', namespace: 'models' },
      spec: { model: { uri: 'hf://org/theirs' } },
    });
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

  const lists = (plural: string) =>
    kube.requests.filter(
      r => r.method === 'GET' && r.path.endsWith(`/${plural}`),
    );

  it('a custom resource in every namespace: 620 objects in two pages', async () => {
    kube.resetRequests();
    const items = await applier.list('local', LLM, SELECTOR);
    expect(items).toHaveLength(620);
    expect(new Set(items!.map(o => o.metadata?.name)).size).toBe(620);
    expect(items!.every(o => o.kind === LLM.kind)).toBe(true);
    const pages = lists('llminferenceservices');
    expect(pages.map(r => [r.query.limit, !!r.query.continue])).toEqual([
      ['500', false],
      ['500', true],
    ]);
  });

  it('a custom resource in one namespace', async () => {
    const items = await applier.list('local', LLM, SELECTOR, {
      namespace: 'models',
    });
    expect(items).toHaveLength(310);
    expect(items!.every(o => o.metadata?.namespace === 'models')).toBe(true);
  });

  it('a core kind: 620 objects in two pages', async () => {
    kube.resetRequests();
    const items = await applier.list(
      'local',
      { apiVersion: 'v1', kind: 'ConfigMap' },
      SELECTOR,
    );
    expect(items).toHaveLength(620);
    expect(lists('configmaps')).toHaveLength(2);
  });

  it('a kind the cluster does not serve: undefined', async () => {
    await expect(
      applier.list(
        'local',
        { apiVersion: 'example.com/v1', kind: 'Nothing' },
        SELECTOR,
      ),
    ).resolves.toBeUndefined();
  });
});
