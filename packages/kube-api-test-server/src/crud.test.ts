/** Create, replace, patch, delete and list over HTTP, for custom resources. */
import { ADMIN_TOKEN, KubeApiTestServer } from './index';
import { TestRequest, TestResponse, clientFor } from './testing/httpClient';

const ISVC = '/apis/serving.kserve.io/v1beta1/namespaces/demo/inferenceservices';
const CSR = '/apis/serving.kserve.io/v1alpha1/clusterservingruntimes';

const isvc = (name: string, extra: Record<string, unknown> = {}, labels: Record<string, string> = {}) => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name, labels },
  spec: { predictor: { model: { modelFormat: { name: 'openvino' }, storageUri: 'pvc://m', ...extra } } },
});

describe('object CRUD', () => {
  let server: KubeApiTestServer;
  let call: (req: TestRequest) => Promise<TestResponse>;

  beforeAll(async () => {
    server = await KubeApiTestServer.start({ namespaces: ['default', 'demo'] });
    call = clientFor(server.url, ADMIN_TOKEN);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  beforeEach(async () => {
    await call({ method: 'DELETE', path: ISVC });
  });

  it('creates (201), refuses duplicates (409) and reads back', async () => {
    const created = await call({ method: 'POST', path: ISVC, body: isvc('a') });
    expect(created.status).toBe(201);
    expect(created.json.metadata).toEqual(
      expect.objectContaining({ name: 'a', namespace: 'demo', generation: 1, uid: expect.any(String) }),
    );
    expect(created.json.metadata.managedFields[0]).toEqual(
      expect.objectContaining({
        operation: 'Update',
        fieldsV1: {
          'f:metadata': { 'f:labels': {} },
          'f:spec': {
            '.': {},
            'f:predictor': {
              '.': {},
              'f:model': { '.': {}, 'f:modelFormat': { '.': {}, 'f:name': {} }, 'f:storageUri': {} },
            },
          },
        },
      }),
    );
    const dup = await call({ method: 'POST', path: ISVC, body: isvc('a') });
    expect(dup.status).toBe(409);
    expect(dup.json).toEqual(
      expect.objectContaining({
        reason: 'AlreadyExists',
        message: 'inferenceservices.serving.kserve.io "a" already exists',
        details: { name: 'a', group: 'serving.kserve.io', kind: 'inferenceservices' },
      }),
    );
    const got = await call({ path: `${ISVC}/a` });
    expect(got.json.metadata.uid).toBe(created.json.metadata.uid);
  });

  it.each([
    ['Warn (default)', '', 201, 'unknown field "spec.predictor.model.bogus"'],
    ['Ignore', '?fieldValidation=Ignore', 201, undefined],
    ['Strict', '?fieldValidation=Strict', 400, undefined],
  ])('handles unknown fields with fieldValidation=%s', async (_name, query, status, warning) => {
    const res = await call({ method: 'POST', path: `${ISVC}${query}`, body: isvc('a', { bogus: 1 }) });
    expect(res.status).toBe(status);
    if (status === 201) expect(res.json.spec.predictor.model.bogus).toBeUndefined();
    if (warning) expect(res.headers.warning).toBe(`299 - "${warning.replace(/"/g, '\\"')}"`);
    if (status === 400) expect(res.json.message).toBe('strict decoding error: unknown field "spec.predictor.model.bogus"');
  });

  it('answers 422 for schema violations in a create', async () => {
    const res = await call({ method: 'POST', path: ISVC, body: isvc('a', { runtime: 5 }) });
    expect(res.status).toBe(422);
    expect(res.json.details.causes).toEqual([
      {
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: "integer": spec.predictor.model.runtime in body must be of type string: "integer"',
        field: 'spec.predictor.model.runtime',
      },
    ]);
  });

  it('refuses objects in a missing namespace like NamespaceLifecycle', async () => {
    const res = await call({
      method: 'POST',
      path: '/apis/serving.kserve.io/v1beta1/namespaces/nope/inferenceservices',
      body: isvc('a'),
    });
    expect(res.status).toBe(404);
    expect(res.json.message).toBe('namespaces "nope" not found');
  });

  it('replaces with optimistic concurrency and bumps generation on spec changes only', async () => {
    const created = (await call({ method: 'POST', path: ISVC, body: isvc('a') })).json;
    const noRv = await call({ method: 'PUT', path: `${ISVC}/a`, body: isvc('a', { runtime: 'x' }) });
    expect(noRv.status).toBe(422);
    expect(noRv.json.message).toBe(
      'inferenceservices.serving.kserve.io "a" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    );
    const stale = { ...isvc('a', { runtime: 'x' }), metadata: { name: 'a', resourceVersion: '1' } };
    const conflict = await call({ method: 'PUT', path: `${ISVC}/a`, body: stale });
    expect(conflict.status).toBe(409);
    expect(conflict.json.message).toBe(
      'Operation cannot be fulfilled on inferenceservices.serving.kserve.io "a": the object has been modified; please apply your changes to the latest version and try again',
    );
    const body = { ...created, spec: { predictor: { model: { ...created.spec.predictor.model, runtime: 'x' } } }, status: { url: 'ignored' } };
    const updated = await call({ method: 'PUT', path: `${ISVC}/a`, body });
    expect(updated.status).toBe(200);
    expect(updated.json.metadata.generation).toBe(2);
    expect(updated.json.status).toBeUndefined();
    const labelsOnly = { ...updated.json, metadata: { ...updated.json.metadata, labels: { x: 'y' } } };
    const relabeled = await call({ method: 'PUT', path: `${ISVC}/a`, body: labelsOnly });
    expect(relabeled.json.metadata.generation).toBe(2);
    expect(Number(relabeled.json.metadata.resourceVersion)).toBeGreaterThan(Number(updated.json.metadata.resourceVersion));
  });

  it('updates only status through the status subresource', async () => {
    const created = (await call({ method: 'POST', path: ISVC, body: isvc('a') })).json;
    const body = { ...created, spec: { predictor: { model: { storageUri: 'changed' } } }, status: { url: 'http://a' } };
    const res = await call({ method: 'PUT', path: `${ISVC}/a/status`, body });
    expect(res.status).toBe(200);
    expect(res.json.status).toEqual({ url: 'http://a' });
    expect(res.json.spec).toEqual(created.spec);
    expect(res.json.metadata.generation).toBe(1);
  });

  it.each([
    ['merge patch', 'application/merge-patch+json', { spec: { predictor: { model: { runtime: 'r' } } } }, 200],
    ['JSON patch', 'application/json-patch+json', [{ op: 'add', path: '/spec/predictor/model/runtime', value: 'r' }], 200],
    ['failing JSON patch test', 'application/json-patch+json', [{ op: 'test', path: '/spec/predictor/model/storageUri', value: 'x' }], 422],
    ['strategic merge patch', 'application/strategic-merge-patch+json', { spec: {} }, 415],
  ])('%s', async (_name, contentType, patch, status) => {
    await call({ method: 'POST', path: ISVC, body: isvc('a') });
    const res = await call({ method: 'PATCH', path: `${ISVC}/a`, body: patch, contentType });
    expect(res.status).toBe(status);
    if (status === 200) {
      expect(res.json.spec.predictor.model.runtime).toBe('r');
      expect(res.json.metadata.generation).toBe(2);
    }
    if (status === 415) {
      expect(res.json.message).toBe(
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
      );
    }
  });

  it('rejects force on non-apply patches', async () => {
    await call({ method: 'POST', path: ISVC, body: isvc('a') });
    const res = await call({ method: 'PATCH', path: `${ISVC}/a?force=true`, body: {}, contentType: 'application/merge-patch+json' });
    expect(res.status).toBe(422);
    expect(res.json.message).toBe('PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
  });

  it('waits for finalizers before deleting', async () => {
    await call({ method: 'POST', path: ISVC, body: { ...isvc('a'), metadata: { name: 'a', finalizers: ['x/y'] } } });
    const deleting = await call({ method: 'DELETE', path: `${ISVC}/a` });
    expect(deleting.status).toBe(200);
    expect(deleting.json.metadata.deletionTimestamp).toBeDefined();
    expect((await call({ path: `${ISVC}/a` })).status).toBe(200);
    const done = await call({
      method: 'PATCH',
      path: `${ISVC}/a`,
      body: { metadata: { finalizers: null } },
      contentType: 'application/merge-patch+json',
    });
    expect(done.status).toBe(200);
    expect((await call({ path: `${ISVC}/a` })).status).toBe(404);
  });

  it('checks delete preconditions', async () => {
    await call({ method: 'POST', path: ISVC, body: isvc('a') });
    const res = await call({ method: 'DELETE', path: `${ISVC}/a`, body: { preconditions: { uid: 'other' } } });
    expect(res.status).toBe(409);
    expect(res.json.message).toMatch(/^Operation cannot be fulfilled on inferenceservices.serving.kserve.io "a": Precondition failed: UID in precondition: other/);
  });

  it('lists with label selectors, pages with limit/continue and deletes collections', async () => {
    for (const name of ['c', 'a', 'b']) {
      await call({ method: 'POST', path: ISVC, body: isvc(name, {}, { tier: name === 'c' ? 'x' : 'y' }) });
    }
    const byLabel = await call({ path: `${ISVC}?labelSelector=tier%3Dy` });
    expect(byLabel.json.kind).toBe('InferenceServiceList');
    expect(byLabel.json.items.map((i: any) => i.metadata.name)).toEqual(['a', 'b']);
    const page1 = await call({ path: `${ISVC}?limit=2` });
    expect(page1.json.items.map((i: any) => i.metadata.name)).toEqual(['a', 'b']);
    expect(page1.json.metadata.remainingItemCount).toBe(1);
    const page2 = await call({ path: `${ISVC}?limit=2&continue=${page1.json.metadata.continue}` });
    expect(page2.json.items.map((i: any) => i.metadata.name)).toEqual(['c']);
    expect(page2.json.metadata.continue).toBe('');
    const all = await call({ path: '/apis/serving.kserve.io/v1beta1/inferenceservices' });
    expect(all.json.items).toHaveLength(3);
    const deleted = await call({ method: 'DELETE', path: `${ISVC}?labelSelector=tier%3Dy` });
    expect(deleted.json.items.map((i: any) => i.metadata.name)).toEqual(['a', 'b']);
    expect((await call({ path: ISVC })).json.items.map((i: any) => i.metadata.name)).toEqual(['c']);
  });

  it('serves cluster-scoped custom resources', async () => {
    const body = {
      apiVersion: 'serving.kserve.io/v1alpha1',
      kind: 'ClusterServingRuntime',
      metadata: { name: 'kserve-openvino', namespace: 'ignored' },
      spec: { containers: [{ name: 'kserve-container', image: 'openvino:1' }], supportedModelFormats: [{ name: 'openvino' }] },
    };
    const created = await call({ method: 'POST', path: CSR, body });
    expect(created.status).toBe(201);
    expect(created.json.metadata.namespace).toBeUndefined();
    expect((await call({ path: `${CSR}/kserve-openvino` })).status).toBe(200);
    expect((await call({ path: '/apis/serving.kserve.io/v1alpha1/namespaces/demo/clusterservingruntimes/kserve-openvino' })).status).toBe(404);
    expect((await call({ method: 'DELETE', path: `${CSR}/kserve-openvino` })).status).toBe(200);
  });

  it.each([
    ['an unknown path', 'GET', '/nope', 404],
    ['an unknown resource', 'GET', '/apis/serving.kserve.io/v1beta1/namespaces/demo/widgets', 404],
    ['an unknown group', 'GET', '/apis/example.com/v1', 404],
    ['a create on the all-namespaces path', 'POST', '/apis/serving.kserve.io/v1beta1/inferenceservices', 405],
    ['a missing subresource', 'GET', `${ISVC}/a/scale`, 404],
  ])('answers %s with a Status', async (_name, method, path, status) => {
    const res = await call({ method, path, body: method === 'POST' ? isvc('a') : undefined });
    expect(res.status).toBe(status);
    expect(res.json.kind).toBe('Status');
    expect(res.headers['content-type']).toBe('application/json');
  });

  it('serves /version and health checks', async () => {
    expect((await call({ path: '/version' })).json.gitVersion).toBe('v1.34.2');
    expect((await call({ path: '/readyz' })).text).toBe('ok');
  });
});
