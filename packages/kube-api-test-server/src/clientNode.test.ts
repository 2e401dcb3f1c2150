/**
 * Drives the server with @kubernetes/client-node 1.4.0 the way the product
 * does: KubernetesObjectApi with server-side apply, reads, lists, deletes,
 * and the errors it surfaces.
 */
import {
  ApiException,
  CoreV1Api,
  KubeConfig,
  KubernetesObject,
  KubernetesObjectApi,
  PatchStrategy,
} from '@kubernetes/client-node';
import { ADMIN_TOKEN, KSERVE_DEV_TOKEN, KubeApiTestServer } from './index';

const isvc = (
  cpu: string,
  extra: Record<string, unknown> = {},
): KubernetesObject & Record<string, unknown> => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: {
    name: 'bge-m3',
    namespace: 'demo',
    labels: { 'app.kubernetes.io/managed-by': 'model-manager' },
  },
  spec: {
    predictor: {
      model: {
        modelFormat: { name: 'openvino' },
        runtime: 'kserve-openvino',
        storageUri: 'pvc://models/bge-m3',
        resources: {
          requests: { cpu, memory: '12Gi' },
          limits: { cpu: '6', memory: '12Gi' },
        },
        ...extra,
      },
    },
  },
});

function kubeConfigFor(url: string, token: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'test', server: url, skipTLSVerify: true }],
    users: [{ name: 'test-user', token }],
    contexts: [
      {
        name: 'test',
        cluster: 'test',
        user: 'test-user',
        namespace: 'default',
      },
    ],
    currentContext: 'test',
  });
  return kc;
}

async function apiError(p: Promise<unknown>): Promise<ApiException<string>> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiException) return e as ApiException<string>;
    throw e;
  }
  throw new Error('expected the call to fail');
}

describe('@kubernetes/client-node against the test server', () => {
  let server: KubeApiTestServer;
  let objects: KubernetesObjectApi;

  beforeAll(async () => {
    server = await KubeApiTestServer.start({ namespaces: ['default', 'demo'] });
    objects = KubernetesObjectApi.makeApiClient(
      kubeConfigFor(server.url, ADMIN_TOKEN),
    );
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  beforeEach(() => {
    server.store.delete({
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      namespace: 'demo',
      name: 'bge-m3',
    });
    server.resetRequests();
  });

  it('creates with server-side apply, re-applies without a change, and reads back', async () => {
    const created = await objects.patch(
      isvc('6'),
      undefined,
      undefined,
      'model-manager',
      false,
      PatchStrategy.ServerSideApply,
    );
    expect(created.metadata?.generation).toBe(1);
    expect(created.metadata?.managedFields).toEqual([
      expect.objectContaining({
        manager: 'model-manager',
        operation: 'Apply',
        fieldsType: 'FieldsV1',
      }),
    ]);
    const again = await objects.patch(
      isvc('6'),
      undefined,
      undefined,
      'model-manager',
      false,
      PatchStrategy.ServerSideApply,
    );
    expect(again.metadata?.resourceVersion).toBe(
      created.metadata?.resourceVersion,
    );

    const read = await objects.read({
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      metadata: { name: 'bge-m3', namespace: 'demo' },
    });
    expect((read as any).spec.predictor.model.runtime).toBe('kserve-openvino');
    const patches = server.requests.filter(r => r.method === 'PATCH');
    expect(patches).toHaveLength(2);
    expect(patches[0]).toEqual(
      expect.objectContaining({
        path: '/apis/serving.kserve.io/v1beta1/namespaces/demo/inferenceservices/bge-m3',
        user: 'admin',
      }),
    );
    expect(patches[0].query.fieldManager).toBe('model-manager');
  });

  it('supports dry runs', async () => {
    const dry = await objects.patch(
      isvc('6'),
      undefined,
      'All',
      'model-manager',
      false,
      PatchStrategy.ServerSideApply,
    );
    expect(dry.metadata?.uid).toBeDefined();
    expect(
      server.store.get({
        apiVersion: 'serving.kserve.io/v1beta1',
        kind: 'InferenceService',
        namespace: 'demo',
        name: 'bge-m3',
      }),
    ).toBeUndefined();
  });

  it('surfaces conflicts as 409 and takes ownership with force', async () => {
    await objects.patch(
      isvc('6'),
      undefined,
      undefined,
      'model-manager',
      false,
      PatchStrategy.ServerSideApply,
    );
    const err = await apiError(
      objects.patch(
        isvc('4'),
        undefined,
        undefined,
        'someone-else',
        false,
        PatchStrategy.ServerSideApply,
      ),
    );
    expect(err.code).toBe(409);
    const status = JSON.parse(err.body);
    expect(status.reason).toBe('Conflict');
    expect(status.details.causes).toEqual([
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "model-manager"',
        field: '.spec.predictor.model.resources.requests.cpu',
      },
    ]);
    const forced = await objects.patch(
      isvc('4'),
      undefined,
      undefined,
      'someone-else',
      true,
      PatchStrategy.ServerSideApply,
    );
    expect((forced as any).spec.predictor.model.resources.requests.cpu).toBe(
      '4',
    );
    expect(forced.metadata?.generation).toBe(2);
  });

  it('reports schema violations as the real server does', async () => {
    const unknown = await apiError(
      objects.patch(
        isvc('6', { notARealField: 1 }),
        undefined,
        undefined,
        'model-manager',
        false,
        PatchStrategy.ServerSideApply,
      ),
    );
    expect(unknown.code).toBe(500);
    expect(JSON.parse(unknown.body).message).toContain(
      '.spec.predictor.model.notARealField: field not declared in schema',
    );
  });

  it('lists by label and deletes', async () => {
    await objects.patch(
      isvc('6'),
      undefined,
      undefined,
      'model-manager',
      false,
      PatchStrategy.ServerSideApply,
    );
    const list = await objects.list(
      'serving.kserve.io/v1beta1',
      'InferenceService',
      'demo',
      undefined,
      undefined,
      undefined,
      undefined,
      'app.kubernetes.io/managed-by=model-manager',
    );
    expect(list.items.map(i => i.metadata?.name)).toEqual(['bge-m3']);
    const none = await objects.list(
      'serving.kserve.io/v1beta1',
      'InferenceService',
      'demo',
      undefined,
      undefined,
      undefined,
      undefined,
      'app.kubernetes.io/managed-by!=model-manager',
    );
    expect(none.items).toEqual([]);
    await objects.delete(isvc('6'));
    const missing = await apiError(objects.read(isvc('6') as any));
    expect(missing.code).toBe(404);
  });

  it('applies RBAC to a restricted user', async () => {
    const dev = KubernetesObjectApi.makeApiClient(
      kubeConfigFor(server.url, KSERVE_DEV_TOKEN),
    );
    const ok = await dev.patch(
      isvc('6'),
      undefined,
      undefined,
      'model-manager',
      false,
      PatchStrategy.ServerSideApply,
    );
    expect(ok.metadata?.name).toBe('bge-m3');
    const inDefault = {
      ...isvc('6'),
      metadata: { ...isvc('6').metadata, namespace: 'default' },
    };
    const err = await apiError(
      dev.patch(
        inDefault,
        undefined,
        undefined,
        'model-manager',
        false,
        PatchStrategy.ServerSideApply,
      ),
    );
    expect(err.code).toBe(403);
    const core = kubeConfigFor(server.url, KSERVE_DEV_TOKEN).makeApiClient(
      CoreV1Api,
    );
    const secrets = await apiError(
      core.listNamespacedSecret({ namespace: 'demo' }),
    );
    expect(secrets.code).toBe(403);
  });

  it('works with typed core APIs', async () => {
    const core = kubeConfigFor(server.url, ADMIN_TOKEN).makeApiClient(
      CoreV1Api,
    );
    await core.createNamespace({ body: { metadata: { name: 'team-a' } } });
    const ns = await core.readNamespace({ name: 'team-a' });
    expect(ns.status?.phase).toBe('Active');
    const cm = await core.createNamespacedConfigMap({
      namespace: 'team-a',
      body: { metadata: { name: 'settings' }, data: { a: '1' } },
    });
    expect(cm.metadata?.managedFields?.[0].operation).toBe('Update');
    const list = await core.listNamespacedConfigMap({ namespace: 'team-a' });
    expect(list.items.map(i => i.metadata?.name)).toEqual(['settings']);
  });
});
