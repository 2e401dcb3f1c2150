/** Deleting and listing custom resources, scopes, and error answers for unknown paths. */
import { ISVC, isvc, useDemoServer } from './testing/demoServer';

const CSR = '/apis/serving.kserve.io/v1alpha1/clusterservingruntimes';

describe('object deletion, listing and routing', () => {
  const { call } = useDemoServer();

  it('waits for finalizers before deleting', async () => {
    await call({
      method: 'POST',
      path: ISVC,
      body: { ...isvc('a'), metadata: { name: 'a', finalizers: ['x/y'] } },
    });
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
    const res = await call({
      method: 'DELETE',
      path: `${ISVC}/a`,
      body: { preconditions: { uid: 'other' } },
    });
    expect(res.status).toBe(409);
    expect(res.json.message).toMatch(
      /^Operation cannot be fulfilled on inferenceservices.serving.kserve.io "a": Precondition failed: UID in precondition: other/,
    );
  });

  it('lists with label selectors, pages with limit/continue and deletes collections', async () => {
    for (const name of ['c', 'a', 'b']) {
      await call({
        method: 'POST',
        path: ISVC,
        body: isvc(name, {}, { tier: name === 'c' ? 'x' : 'y' }),
      });
    }
    const byLabel = await call({ path: `${ISVC}?labelSelector=tier%3Dy` });
    expect(byLabel.json.kind).toBe('InferenceServiceList');
    expect(byLabel.json.items.map((i: any) => i.metadata.name)).toEqual([
      'a',
      'b',
    ]);
    const page1 = await call({ path: `${ISVC}?limit=2` });
    expect(page1.json.items.map((i: any) => i.metadata.name)).toEqual([
      'a',
      'b',
    ]);
    expect(page1.json.metadata.remainingItemCount).toBe(1);
    const page2 = await call({
      path: `${ISVC}?limit=2&continue=${page1.json.metadata.continue}`,
    });
    expect(page2.json.items.map((i: any) => i.metadata.name)).toEqual(['c']);
    expect(page2.json.metadata.continue).toBe('');
    const all = await call({
      path: '/apis/serving.kserve.io/v1beta1/inferenceservices',
    });
    expect(all.json.items).toHaveLength(3);
    const deleted = await call({
      method: 'DELETE',
      path: `${ISVC}?labelSelector=tier%3Dy`,
    });
    expect(deleted.json.items.map((i: any) => i.metadata.name)).toEqual([
      'a',
      'b',
    ]);
    expect(
      (await call({ path: ISVC })).json.items.map((i: any) => i.metadata.name),
    ).toEqual(['c']);
  });

  it('serves cluster-scoped custom resources', async () => {
    const body = {
      apiVersion: 'serving.kserve.io/v1alpha1',
      kind: 'ClusterServingRuntime',
      metadata: { name: 'kserve-openvino', namespace: 'ignored' },
      spec: {
        containers: [{ name: 'kserve-container', image: 'openvino:1' }],
        supportedModelFormats: [{ name: 'openvino' }],
      },
    };
    const created = await call({ method: 'POST', path: CSR, body });
    expect(created.status).toBe(201);
    expect(created.json.metadata.namespace).toBeUndefined();
    expect((await call({ path: `${CSR}/kserve-openvino` })).status).toBe(200);
    expect(
      (
        await call({
          path: '/apis/serving.kserve.io/v1alpha1/namespaces/demo/clusterservingruntimes/kserve-openvino',
        })
      ).status,
    ).toBe(404);
    expect(
      (await call({ method: 'DELETE', path: `${CSR}/kserve-openvino` })).status,
    ).toBe(200);
  });

  it.each([
    ['an unknown path', 'GET', '/nope', 404],
    [
      'an unknown resource',
      'GET',
      '/apis/serving.kserve.io/v1beta1/namespaces/demo/widgets',
      404,
    ],
    ['an unknown group', 'GET', '/apis/example.com/v1', 404],
    [
      'a create on the all-namespaces path',
      'POST',
      '/apis/serving.kserve.io/v1beta1/inferenceservices',
      405,
    ],
    ['a missing subresource', 'GET', `${ISVC}/a/scale`, 404],
  ])('answers %s with a Status', async (_name, method, path, status) => {
    const res = await call({
      method,
      path,
      body: method === 'POST' ? isvc('a') : undefined,
    });
    expect(res.status).toBe(status);
    expect(res.json.kind).toBe('Status');
    expect(res.headers['content-type']).toBe('application/json');
  });

  it('serves /version and health checks', async () => {
    expect((await call({ path: '/version' })).json.gitVersion).toBe('v1.34.2');
    expect((await call({ path: '/readyz' })).text).toBe('ok');
  });
});
