import { ADMIN_TOKEN, KubeApiTestServer } from '../index';
import { request } from '../testing/httpClient';

const ref = {
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  namespace: 'demo',
  name: 'a',
};

describe('server.store', () => {
  let server: KubeApiTestServer;

  beforeAll(async () => {
    server = await KubeApiTestServer.start({
      namespaces: ['demo'],
      clock: () => new Date('2030-01-02T03:04:05.678Z'),
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('puts objects that the API then serves', async () => {
    const put = server.store.put({
      ...ref,
      metadata: { name: 'a', namespace: 'demo', labels: { x: 'y' } },
      spec: {},
    });
    expect(put.metadata).toEqual(
      expect.objectContaining({
        uid: expect.any(String),
        creationTimestamp: '2030-01-02T03:04:05Z',
        generation: 1,
      }),
    );
    const res = await request(server.url, {
      path: '/apis/serving.kserve.io/v1beta1/namespaces/demo/inferenceservices/a',
      token: ADMIN_TOKEN,
    });
    expect(res.json.metadata.resourceVersion).toBe(
      (put.metadata as any).resourceVersion,
    );
    expect(
      server.store.list({
        apiVersion: ref.apiVersion,
        kind: 'inferenceservices',
        labelSelector: 'x=y',
      }),
    ).toHaveLength(1);
  });

  it('sets status like a controller and records the manager when asked', () => {
    server.store.put({
      ...ref,
      metadata: { name: 'a', namespace: 'demo' },
      spec: {},
    });
    const updated = server.store.setStatus(
      ref,
      { url: 'http://a' },
      { fieldManager: 'kserve-controller' },
    );
    expect(updated.status).toEqual({ url: 'http://a' });
    expect((updated.metadata as any).managedFields).toEqual([
      expect.objectContaining({
        manager: 'kserve-controller',
        operation: 'Update',
        subresource: 'status',
      }),
    ]);
  });

  it('refuses objects in missing namespaces and deletes', () => {
    expect(() =>
      server.store.put({ ...ref, metadata: { name: 'b', namespace: 'nope' } }),
    ).toThrow(/namespace nope/);
    expect(server.store.delete(ref)).toBe(true);
    expect(server.store.get(ref)).toBeUndefined();
    expect(server.store.namespaces()).toEqual(['demo']);
  });
});
