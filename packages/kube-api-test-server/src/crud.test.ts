/** Creating, replacing and patching custom resources over HTTP. */
import { ADMIN_TOKEN, KubeApiTestServer } from './index';
import { clientFor } from './testing/httpClient';
import { ISVC, isvc, useDemoServer } from './testing/demoServer';

describe('object CRUD', () => {
  const { call } = useDemoServer();

  it('creates (201), refuses duplicates (409) and reads back', async () => {
    const created = await call({ method: 'POST', path: ISVC, body: isvc('a') });
    expect(created.status).toBe(201);
    expect(created.json.metadata).toEqual(
      expect.objectContaining({
        name: 'a',
        namespace: 'demo',
        generation: 1,
        uid: expect.any(String),
      }),
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
              'f:model': {
                '.': {},
                'f:modelFormat': { '.': {}, 'f:name': {} },
                'f:storageUri': {},
              },
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
        details: {
          name: 'a',
          group: 'serving.kserve.io',
          kind: 'inferenceservices',
        },
      }),
    );
    const got = await call({ path: `${ISVC}/a` });
    expect(got.json.metadata.uid).toBe(created.json.metadata.uid);
  });

  it.each([
    [
      'Warn (default)',
      '',
      201,
      '299 - "unknown field \\"spec.predictor.model.bogus\\""',
      undefined,
    ],
    ['Ignore', '?fieldValidation=Ignore', 201, undefined, undefined],
    [
      'Strict',
      '?fieldValidation=Strict',
      400,
      undefined,
      'strict decoding error: unknown field "spec.predictor.model.bogus"',
    ],
  ])(
    'handles unknown fields with fieldValidation=%s',
    async (_name, query, status, warning, message) => {
      const res = await call({
        method: 'POST',
        path: `${ISVC}${query}`,
        body: isvc('a', { bogus: 1 }),
      });
      expect({
        status: res.status,
        warning: res.headers.warning,
        bogus: res.json.spec?.predictor?.model?.bogus,
        message: res.json.kind === 'Status' ? res.json.message : undefined,
      }).toEqual({ status, warning, bogus: undefined, message });
    },
  );

  it('answers 422 for schema violations in a create', async () => {
    const res = await call({
      method: 'POST',
      path: ISVC,
      body: isvc('a', { runtime: 5 }),
    });
    expect(res.status).toBe(422);
    expect(res.json.details.causes).toEqual([
      {
        reason: 'FieldValueTypeInvalid',
        message:
          'Invalid value: "integer": spec.predictor.model.runtime in body must be of type string: "integer"',
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
    const created = (
      await call({ method: 'POST', path: ISVC, body: isvc('a') })
    ).json;
    const noRv = await call({
      method: 'PUT',
      path: `${ISVC}/a`,
      body: isvc('a', { runtime: 'x' }),
    });
    expect(noRv.status).toBe(422);
    expect(noRv.json.message).toBe(
      'inferenceservices.serving.kserve.io "a" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    );
    const stale = {
      ...isvc('a', { runtime: 'x' }),
      metadata: { name: 'a', resourceVersion: '1' },
    };
    const conflict = await call({
      method: 'PUT',
      path: `${ISVC}/a`,
      body: stale,
    });
    expect(conflict.status).toBe(409);
    expect(conflict.json.message).toBe(
      'Operation cannot be fulfilled on inferenceservices.serving.kserve.io "a": the object has been modified; please apply your changes to the latest version and try again',
    );
    const body = {
      ...created,
      spec: {
        predictor: { model: { ...created.spec.predictor.model, runtime: 'x' } },
      },
      status: { url: 'ignored' },
    };
    const updated = await call({ method: 'PUT', path: `${ISVC}/a`, body });
    expect(updated.status).toBe(200);
    expect(updated.json.metadata.generation).toBe(2);
    expect(updated.json.status).toBeUndefined();
    const labelsOnly = {
      ...updated.json,
      metadata: { ...updated.json.metadata, labels: { x: 'y' } },
    };
    const relabeled = await call({
      method: 'PUT',
      path: `${ISVC}/a`,
      body: labelsOnly,
    });
    expect(relabeled.json.metadata.generation).toBe(2);
    expect(Number(relabeled.json.metadata.resourceVersion)).toBeGreaterThan(
      Number(updated.json.metadata.resourceVersion),
    );
  });

  it('updates only status through the status subresource', async () => {
    const created = (
      await call({ method: 'POST', path: ISVC, body: isvc('a') })
    ).json;
    const body = {
      ...created,
      spec: { predictor: { model: { storageUri: 'changed' } } },
      status: { url: 'http://a' },
    };
    const res = await call({ method: 'PUT', path: `${ISVC}/a/status`, body });
    expect(res.status).toBe(200);
    expect(res.json.status).toEqual({ url: 'http://a' });
    expect(res.json.spec).toEqual(created.spec);
    expect(res.json.metadata.generation).toBe(1);
  });

  const UNSUPPORTED =
    'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml';

  it.each([
    [
      'merge patch',
      'application/merge-patch+json',
      { spec: { predictor: { model: { runtime: 'r' } } } },
      { status: 200, runtime: 'r', generation: 2 },
    ],
    [
      'JSON patch',
      'application/json-patch+json',
      [{ op: 'add', path: '/spec/predictor/model/runtime', value: 'r' }],
      { status: 200, runtime: 'r', generation: 2 },
    ],
    [
      'failing JSON patch test',
      'application/json-patch+json',
      [{ op: 'test', path: '/spec/predictor/model/storageUri', value: 'x' }],
      {
        status: 422,
        message:
          'testing value /spec/predictor/model/storageUri failed: test failed',
      },
    ],
    [
      'strategic merge patch',
      'application/strategic-merge-patch+json',
      { spec: {} },
      { status: 415, message: UNSUPPORTED },
    ],
  ])('%s', async (_name, contentType, patch, expected) => {
    await call({ method: 'POST', path: ISVC, body: isvc('a') });
    const res = await call({
      method: 'PATCH',
      path: `${ISVC}/a`,
      body: patch,
      contentType,
    });
    const isStatus = res.json.kind === 'Status';
    expect({
      status: res.status,
      runtime: isStatus ? undefined : res.json.spec.predictor.model.runtime,
      generation: isStatus ? undefined : res.json.metadata.generation,
      message: isStatus ? res.json.message : undefined,
    }).toEqual({
      runtime: undefined,
      generation: undefined,
      message: undefined,
      ...expected,
    });
  });

  it('rejects force on non-apply patches', async () => {
    await call({ method: 'POST', path: ISVC, body: isvc('a') });
    const res = await call({
      method: 'PATCH',
      path: `${ISVC}/a?force=true`,
      body: {},
      contentType: 'application/merge-patch+json',
    });
    expect(res.status).toBe(422);
    expect(res.json.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    );
  });
});

describe('a re-apply that changes nothing but managedFields times', () => {
  // kube-apiserver's IgnoreManagedFieldsTimestampsTransformer (registry Store.Update): the field
  // manager sees the atomic `rules` list change (the applied items lack what the CRD defaults:
  // weight, priority, modelsOwnedBy), defaulting undoes it, and the write is a no-op.
  const ROUTES =
    '/apis/aigateway.envoyproxy.io/v1beta1/namespaces/demo/aigatewayroutes';
  const route = (value: string) => ({
    apiVersion: 'aigateway.envoyproxy.io/v1beta1',
    kind: 'AIGatewayRoute',
    metadata: { name: 'm', namespace: 'demo' },
    spec: {
      parentRefs: [
        { name: 'gw', kind: 'Gateway', group: 'gateway.networking.k8s.io' },
      ],
      rules: [
        {
          matches: [
            { headers: [{ type: 'Exact', name: 'x-ai-eg-model', value }] },
          ],
          backendRefs: [{ name: 'm' }],
        },
      ],
    },
  });

  it('keeps the resourceVersion and the times; a real change still moves both', async () => {
    let now = new Date('2026-11-30T14:00:00Z');
    const server = await KubeApiTestServer.start({
      namespaces: ['demo'],
      clock: () => now,
    });
    try {
      const call = clientFor(server.url, ADMIN_TOKEN);
      const apply = (value: string) =>
        call({
          method: 'PATCH',
          path: `${ROUTES}/m?fieldManager=mm`,
          body: route(value),
          contentType: 'application/apply-patch+yaml',
        });
      const first = await apply('a');
      expect(first.json.spec.rules[0].backendRefs[0]).toEqual({
        name: 'm',
        priority: 0,
        weight: 1,
      });
      now = new Date('2026-11-30T14:00:05Z');
      const again = await apply('a');
      expect(again.status).toBe(200);
      expect(again.json.metadata.resourceVersion).toBe(
        first.json.metadata.resourceVersion,
      );
      expect(again.json.metadata.managedFields[0].time).toBe(
        '2026-11-30T14:00:00Z',
      );
      const changed = await apply('b');
      expect(changed.json.metadata.resourceVersion).not.toBe(
        first.json.metadata.resourceVersion,
      );
      expect(changed.json.metadata.managedFields[0].time).toBe(
        '2026-11-30T14:00:05Z',
      );
    } finally {
      await server.stop();
    }
  });
});
