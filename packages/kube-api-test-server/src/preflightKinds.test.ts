/**
 * What a deploy preflight reads: Nodes, ResourceQuotas, LimitRanges, StorageClasses (and their
 * discovery), and Secrets as metadata only (PartialObjectMetadata), with a refusal by RBAC.
 */
import { ADMIN_TOKEN, KubeApiTestServer } from './index';
import { TestRequest, TestResponse, clientFor } from './testing/httpClient';

const AS_META = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const AS_META_LIST =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';

describe('kinds a preflight reads', () => {
  let server: KubeApiTestServer;
  let call: (req: TestRequest) => Promise<TestResponse>;

  beforeAll(async () => {
    server = await KubeApiTestServer.start({
      namespaces: ['demo'],
      users: {
        [ADMIN_TOKEN]: {
          name: 'admin',
          groups: ['system:masters'],
          rules: [],
        },
        'ns-only': {
          name: 'ns-only',
          rules: [
            { namespaces: ['demo'], verbs: ['get', 'list'], resources: '*' },
          ],
        },
      },
    });
    call = clientFor(server.url, ADMIN_TOKEN);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it.each([
    ['/api/v1', 'nodes', 'Node', false],
    ['/api/v1', 'resourcequotas', 'ResourceQuota', true],
    ['/api/v1', 'limitranges', 'LimitRange', true],
    ['/apis/storage.k8s.io/v1', 'storageclasses', 'StorageClass', false],
  ])('serves %s %s in discovery', async (path, name, kind, namespaced) => {
    const res = await call({ path });
    expect(res.json.resources).toContainEqual(
      expect.objectContaining({ name, kind, namespaced }),
    );
  });

  it('lists storage.k8s.io among the groups after batch, as kube-apiserver orders them', async () => {
    const names = (await call({ path: '/apis' })).json.groups.map(
      (g: any) => g.name,
    );
    expect(names.indexOf('storage.k8s.io')).toBeGreaterThan(
      names.indexOf('batch'),
    );
  });

  it('stores Nodes (cluster-scoped) and ResourceQuota status', async () => {
    server.store.put({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n1' },
    });
    server.store.setStatus(
      { apiVersion: 'v1', kind: 'Node', name: 'n1' },
      {
        allocatable: { cpu: '4', memory: '16Gi' },
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    );
    const nodes = await call({ path: '/api/v1/nodes' });
    expect(nodes.json.kind).toBe('NodeList');
    expect(nodes.json.items[0].status.allocatable.cpu).toBe('4');
    server.store.put({
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'q', namespace: 'demo' },
      spec: { hard: { 'requests.cpu': '2' } },
    });
    server.store.setStatus(
      { apiVersion: 'v1', kind: 'ResourceQuota', namespace: 'demo', name: 'q' },
      { hard: { 'requests.cpu': '2' }, used: { 'requests.cpu': '1' } },
    );
    const quotas = await call({
      path: '/api/v1/namespaces/demo/resourcequotas',
    });
    expect(quotas.json.items[0].status.used['requests.cpu']).toBe('1');
  });

  it('answers a Secret as metadata only when asked, never its data', async () => {
    server.store.put({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'hf-token', namespace: 'demo' },
      data: { token: Buffer.from('hf_secret_value').toString('base64') },
    });
    const one = await call({
      path: '/api/v1/namespaces/demo/secrets/hf-token',
      headers: { Accept: AS_META },
    });
    expect(one.status).toBe(200);
    expect(one.headers['content-type']).toBe(AS_META);
    expect(one.json).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: expect.objectContaining({ name: 'hf-token' }),
    });
    expect(one.json.data).toBeUndefined();
    expect(one.text).not.toContain(
      Buffer.from('hf_secret_value').toString('base64'),
    );
    const list = await call({
      path: '/api/v1/namespaces/demo/secrets',
      headers: { Accept: AS_META_LIST },
    });
    expect(list.json.kind).toBe('PartialObjectMetadataList');
    expect(list.json.items[0]).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: expect.objectContaining({ name: 'hf-token' }),
    });
    expect(list.text).not.toContain(
      Buffer.from('hf_secret_value').toString('base64'),
    );
    const missing = await call({
      path: '/api/v1/namespaces/demo/secrets/nope',
      headers: { Accept: AS_META },
    });
    expect(missing.status).toBe(404);
    expect(missing.json.reason).toBe('NotFound');
  });

  it('answers 406 for the single form on a list', async () => {
    const res = await call({
      path: '/api/v1/namespaces/demo/secrets',
      headers: { Accept: AS_META },
    });
    expect(res.status).toBe(406);
    expect(res.json.reason).toBe('NotAcceptable');
  });

  it('refuses to list nodes for a user without the right, as RBAC does', async () => {
    const res = await clientFor(
      server.url,
      'ns-only',
    )({ path: '/api/v1/nodes' });
    expect(res.status).toBe(403);
    expect(res.json.message).toBe(
      'nodes is forbidden: User "ns-only" cannot list resource "nodes" in API group "" at the cluster scope',
    );
  });
});
