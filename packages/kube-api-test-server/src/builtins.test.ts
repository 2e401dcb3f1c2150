/** Built-in kinds: Jobs, Secrets, Namespaces, PersistentVolumeClaims and the core discovery document. */
import { ADMIN_TOKEN, KubeApiTestServer } from './index';
import { TestRequest, TestResponse, clientFor } from './testing/httpClient';

const JOBS = '/apis/batch/v1/namespaces/demo/jobs';

const job = (name: string, containers: unknown[], restartPolicy?: string) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name },
  spec: {
    template: {
      spec: { containers, ...(restartPolicy ? { restartPolicy } : {}) },
    },
  },
});

describe('built-in kinds', () => {
  let server: KubeApiTestServer;
  let call: (req: TestRequest) => Promise<TestResponse>;

  beforeAll(async () => {
    server = await KubeApiTestServer.start({ namespaces: ['demo'] });
    call = clientFor(server.url, ADMIN_TOKEN);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('creates Jobs with defaults, a selector and an empty status', async () => {
    const res = await call({
      method: 'POST',
      path: JOBS,
      body: job('load', [{ name: 'main', image: 'busybox:1' }], 'Never'),
    });
    expect(res.status).toBe(201);
    const uid = res.json.metadata.uid;
    expect(res.json.spec).toEqual(
      expect.objectContaining({
        backoffLimit: 6,
        completions: 1,
        parallelism: 1,
        selector: {
          matchLabels: { 'batch.kubernetes.io/controller-uid': uid },
        },
      }),
    );
    expect(
      res.json.spec.template.metadata.labels['batch.kubernetes.io/job-name'],
    ).toBe('load');
    expect(res.json.spec.template.spec.containers[0].imagePullPolicy).toBe(
      'IfNotPresent',
    );
    expect(res.json.status).toEqual({});
    expect(res.json.metadata.generation).toBe(1);
  });

  it.each([
    [
      'no containers',
      [],
      'Never',
      ['spec.template.spec.containers: Required value'],
    ],
    [
      'a container without image and the default restart policy',
      [{ name: 'main' }],
      undefined,
      [
        'spec.template.spec.containers[0].image: Required value',
        'spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: "OnFailure", "Never"',
      ],
    ],
  ])('rejects a Job with %s', async (_name, containers, policy, messages) => {
    const res = await call({
      method: 'POST',
      path: JOBS,
      body: job('bad', containers, policy),
    });
    expect(res.status).toBe(422);
    expect(res.json.details).toEqual(
      expect.objectContaining({ name: 'bad', group: 'batch', kind: 'Job' }),
    );
    expect(
      res.json.details.causes.map((c: any) => `${c.field}: ${c.message}`),
    ).toEqual(messages);
  });

  it('updates Job status through the status subresource only', async () => {
    await call({
      method: 'POST',
      path: JOBS,
      body: job('st', [{ name: 'main', image: 'busybox:1' }], 'Never'),
    });
    const res = await call({
      method: 'PATCH',
      path: `${JOBS}/st/status`,
      body: { status: { succeeded: 1 }, spec: { parallelism: 5 } },
      contentType: 'application/merge-patch+json',
    });
    expect(res.status).toBe(200);
    expect(res.json.status).toEqual({ succeeded: 1 });
    expect(res.json.spec.parallelism).toBe(1);
  });

  it('applies Jobs with keyed containers', async () => {
    const body = {
      ...job(
        'ssa',
        [
          {
            name: 'main',
            image: 'busybox:1',
            env: [{ name: 'A', value: '1' }],
          },
        ],
        'Never',
      ),
      metadata: { name: 'ssa', namespace: 'demo' },
    };
    const res = await call({
      method: 'PATCH',
      path: `${JOBS}/ssa?fieldManager=m`,
      body,
      contentType: 'application/apply-patch+yaml',
    });
    expect(res.status).toBe(201);
    const fields = res.json.metadata.managedFields[0].fieldsV1;
    expect(
      fields['f:spec']['f:template']['f:spec']['f:containers'][
        'k:{"name":"main"}'
      ]['f:env'],
    ).toEqual({
      'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} },
    });
  });

  const PVCS = '/api/v1/namespaces/demo/persistentvolumeclaims';
  const claim = (name: string, spec: Record<string, unknown>) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'demo' },
    spec,
  });

  it('creates PersistentVolumeClaims Pending, with volumeMode Filesystem', async () => {
    const res = await call({
      method: 'PATCH',
      path: `${PVCS}/weights?fieldManager=m`,
      body: claim('weights', {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '100Gi' } },
      }),
      contentType: 'application/apply-patch+yaml',
    });
    expect(res.status).toBe(201);
    expect(res.json.spec).toEqual({
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '100Gi' } },
      volumeMode: 'Filesystem',
    });
    expect(res.json.status).toEqual({ phase: 'Pending' });
  });

  it.each([
    [
      'no access mode and no storage request',
      {},
      [
        'spec.accessModes: Required value: at least 1 access mode is required',
        'spec.resources[storage]: Required value',
      ],
    ],
    [
      'an unknown access mode',
      {
        accessModes: ['ReadWriteSometimes'],
        resources: { requests: { storage: '1Gi' } },
      },
      [
        'spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
      ],
    ],
  ])(
    'rejects a PersistentVolumeClaim with %s',
    async (_name, spec, messages) => {
      const res = await call({
        method: 'POST',
        path: PVCS,
        body: claim('bad', spec),
      });
      expect(res.status).toBe(422);
      expect(
        res.json.details.causes.map((c: any) => `${c.field}: ${c.message}`),
      ).toEqual(messages);
    },
  );

  it('keeps a PersistentVolumeClaim spec immutable except the storage request of a Bound claim', async () => {
    const spec = {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
    };
    await call({ method: 'POST', path: PVCS, body: claim('fixed', spec) });
    const grow = () =>
      call({
        method: 'PATCH',
        path: `${PVCS}/fixed`,
        body: { spec: { resources: { requests: { storage: '2Gi' } } } },
        contentType: 'application/merge-patch+json',
      });
    const pending = await grow();
    expect(pending.status).toBe(422);
    expect(pending.json.details.causes[0]).toMatchObject({
      field: 'spec',
      reason: 'FieldValueForbidden',
    });
    server.store.setStatus(
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        namespace: 'demo',
        name: 'fixed',
      },
      { phase: 'Bound' },
    );
    expect((await grow()).status).toBe(200);
    const changed = await call({
      method: 'PATCH',
      path: `${PVCS}/fixed`,
      body: { spec: { accessModes: ['ReadWriteMany'] } },
      contentType: 'application/merge-patch+json',
    });
    expect(changed.status).toBe(422);
    expect(changed.json.details.causes[0]).toMatchObject({
      field: 'spec',
      reason: 'FieldValueForbidden',
    });
  });

  it('turns Secret stringData into data', async () => {
    const res = await call({
      method: 'POST',
      path: '/api/v1/namespaces/demo/secrets',
      body: { metadata: { name: 's' }, stringData: { token: 'abc' } },
    });
    expect(res.status).toBe(201);
    expect(res.json.data).toEqual({ token: 'YWJj' });
    expect(res.json.type).toBe('Opaque');
    expect(res.json.stringData).toBeUndefined();
  });

  it('creates namespaces and deletes their contents with them', async () => {
    const created = await call({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: { metadata: { name: 'tmp' } },
    });
    expect(created.json.metadata.labels).toEqual({
      'kubernetes.io/metadata.name': 'tmp',
    });
    expect(created.json.status).toEqual({ phase: 'Active' });
    await call({
      method: 'POST',
      path: '/api/v1/namespaces/tmp/configmaps',
      body: { metadata: { name: 'c' } },
    });
    const bad = await call({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: { metadata: { name: 'a.b' } },
    });
    expect(bad.status).toBe(422);
    const deleted = await call({
      method: 'DELETE',
      path: '/api/v1/namespaces/tmp',
    });
    expect(deleted.json.status.phase).toBe('Terminating');
    expect(
      (await call({ path: '/api/v1/namespaces/tmp/configmaps/c' })).status,
    ).toBe(404);
    expect((await call({ path: '/api/v1/namespaces/tmp' })).status).toBe(404);
  });

  it('lists built-in items without apiVersion and kind, like typed lists', async () => {
    const res = await call({ path: '/api/v1/namespaces' });
    expect(res.json.kind).toBe('NamespaceList');
    expect(res.json.items[0].kind).toBeUndefined();
    expect(res.json.metadata.continue).toBeUndefined();
  });

  it('describes the core group in discovery', async () => {
    const res = await call({ path: '/api/v1' });
    expect(res.json.groupVersion).toBe('v1');
    expect(res.json.apiVersion).toBeUndefined();
    expect(
      res.json.resources.find((r: any) => r.name === 'namespaces'),
    ).toEqual({
      name: 'namespaces',
      singularName: 'namespace',
      namespaced: false,
      kind: 'Namespace',
      verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['ns'],
      storageVersionHash: 'Q3oi5N2YM8M=',
    });
    // As kube-apiserver v1.34 lists it (storageVersionHash of /v1/PersistentVolumeClaim).
    expect(
      res.json.resources.find((r: any) => r.name === 'persistentvolumeclaims'),
    ).toEqual({
      name: 'persistentvolumeclaims',
      singularName: 'persistentvolumeclaim',
      namespaced: true,
      kind: 'PersistentVolumeClaim',
      verbs: [
        'create',
        'delete',
        'deletecollection',
        'get',
        'list',
        'patch',
        'update',
        'watch',
      ],
      shortNames: ['pvc'],
      storageVersionHash: 'QWTyNDq0dC4=',
    });
    expect(
      res.json.resources.find(
        (r: any) => r.name === 'persistentvolumeclaims/status',
      ),
    ).toMatchObject({ kind: 'PersistentVolumeClaim', namespaced: true });
  });
});
