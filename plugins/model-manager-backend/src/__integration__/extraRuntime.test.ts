import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import {
  REPO_ROOT,
  startModelManager,
  type ModelManagerTestContext,
} from '../__testUtils__/testBackend';

const ALICE = mockCredentials.user.header('user:default/alice');
// A third engine added as data only: examples/extra-runtime (its runtimes/ folder holds the
// engine profile, plumbing, ClusterServingRuntime and InferenceService template). This test
// reads the engine's names from the served catalog, not from code.
const EXAMPLE = path.join(REPO_ROOT, 'examples/extra-runtime');

describe('deploying a model of an engine added as data only (examples/extra-runtime)', () => {
  let ctx: ModelManagerTestContext;
  // Starting a backend on a busy machine takes a while: generous, explicit timeouts.
  beforeAll(async () => {
    ctx = await startModelManager({
      modelsFile: path.join(EXAMPLE, 'models.yaml'),
      runtimesDir: path.join(EXAMPLE, 'runtimes'),
    });
  }, 120_000);
  afterAll(() => ctx?.stop(), 60_000);
  const api = () => request(ctx.server);

  it('lists its models (the Models page) and deploys one: runtime when absent, InferenceService, routes; status and undeploy work', async () => {
    const list = await api()
      .get('/api/model-manager/models')
      .set('Authorization', ALICE)
      .expect(200);
    expect(list.body.items.length).toBeGreaterThanOrEqual(2);
    const llm = list.body.items.find((m: any) => m.category === 'llm');
    expect(llm).toMatchObject({ kind: 'InferenceService' });
    expect(llm.version).toBeUndefined();
    const runtime = await api()
      .get(`/api/model-manager/runtimes/${llm.runtime}`)
      .set('Authorization', ALICE)
      .expect(200);
    const runtimeName = runtime.body.plumbing.runtime_name.value;

    const res = await api()
      .post(`/api/model-manager/models/${llm.name}/deploy`)
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' });
    expect(res.status).toBe(200);
    expect(
      res.body.objects.map((o: any) => [o.kind, o.name, o.action]),
    ).toEqual([
      ['ClusterServingRuntime', runtimeName, 'created'],
      ['InferenceService', llm.name, 'created'],
      ['Backend', llm.name, 'created'],
      ['AIServiceBackend', llm.name, 'created'],
      ['AIGatewayRoute', llm.name, 'created'],
    ]);
    const isvc = ctx.kube.store.get({
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      name: llm.name,
      namespace: 'models',
    }) as any;
    expect(isvc.spec.predictor.model.runtime).toBe(runtimeName);
    expect(isvc.metadata.annotations['model-manager.io/model-id']).toBe(
      llm.modelId,
    );

    // Not ready: the conditions are explained as the engine's profile says (status.explain).
    const profile = parse(
      fs.readFileSync(
        path.join(EXAMPLE, 'runtimes', llm.runtime, 'profile.yaml'),
        'utf8',
      ),
    );
    ctx.kube.store.setStatus(
      {
        apiVersion: 'serving.kserve.io/v1beta1',
        kind: 'InferenceService',
        namespace: 'models',
        name: llm.name,
      },
      {
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            lastTransitionTime: '2026-12-01T00:00:00Z',
          },
          {
            type: 'PredictorReady',
            status: 'False',
            reason: 'ContainerCreating',
            lastTransitionTime: '2026-12-01T00:00:00Z',
          },
        ],
      },
    );
    const notReady = await api()
      .get(`/api/model-manager/models/${llm.name}/status`)
      .set('Authorization', ALICE)
      .expect(200);
    expect(notReady.body.items[0].summary.problems).toEqual([
      `PredictorReady is False: ${profile.status.explain.PredictorReady} (ContainerCreating).`,
    ]);

    // KServe reports it Ready: the status reads the InferenceService like any other.
    ctx.kube.store.setStatus(
      {
        apiVersion: 'serving.kserve.io/v1beta1',
        kind: 'InferenceService',
        namespace: 'models',
        name: llm.name,
      },
      {
        url: `http://${llm.name}.models.svc`,
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            lastTransitionTime: '2026-12-01T00:00:00Z',
          },
        ],
      },
    );
    const status = await api()
      .get(`/api/model-manager/models/${llm.name}/status`)
      .set('Authorization', ALICE)
      .expect(200);
    expect(status.body.items[0]).toMatchObject({
      cluster: 'local',
      namespace: 'models',
      found: true,
      summary: { ready: true, problems: [] },
    });

    // Undeploy removes the model's objects and leaves the shared ClusterServingRuntime.
    const undeploy = await api()
      .delete(`/api/model-manager/models/${llm.name}/deployment`)
      .query({ cluster: 'local', namespace: 'models' })
      .set('Authorization', ALICE);
    expect(undeploy.body).toMatchObject({ ok: true, action: 'undeploy' });
    expect(
      ctx.kube.store.get({
        apiVersion: 'serving.kserve.io/v1beta1',
        kind: 'InferenceService',
        name: llm.name,
        namespace: 'models',
      }),
    ).toBeUndefined();
    expect(
      ctx.kube.store.get({
        apiVersion: 'serving.kserve.io/v1alpha1',
        kind: 'ClusterServingRuntime',
        name: runtimeName,
      }),
    ).toBeDefined();
  });
});
