import fs from 'node:fs';
import path from 'node:path';
import { mockCredentials } from '@backstage/backend-test-utils';
import {
  buildCatalog,
  type EngineProfile,
} from '@model-manager/plugin-model-manager-common';
import {
  catalogDirWith,
  dirSources,
  FIXTURE_CATALOG_DIR,
  FOURTH_ENGINE_DIR,
} from '@model-manager/plugin-model-manager-common/testUtils';
import request from 'supertest';
import {
  startModelManager,
  type ModelManagerTestContext,
} from '../__testUtils__/testBackend';

const ALICE = mockCredentials.user.header('user:default/alice');
const GATEWAY = 'https://ai.example.com';

// A fourth engine added as data only (the common package's testUtils/fourth-engine: a plumbing
// key, a routing value and categories no other engine has), served beside the test catalog's two
// engines and the third engine of examples/extra-runtime. The test reads the engine's names from
// its folder.
const fourth = buildCatalog(dirSources(FOURTH_ENGINE_DIR));
const [runtimeName] = Object.keys(fourth.runtimes);
const profile: EngineProfile = fourth.runtimes[runtimeName].profile;
const [routing] = Object.keys(profile.routing);
const NEW_KEY = 'port';

describe('a fourth engine added as data only: listed, deployed, its status and endpoint shown', () => {
  let ctx: ModelManagerTestContext;
  let dir: string;
  beforeAll(async () => {
    dir = catalogDirWith(
      FIXTURE_CATALOG_DIR,
      'examples/extra-runtime',
      FOURTH_ENGINE_DIR,
    );
    ctx = await startModelManager({
      modelsFile: path.join(dir, 'models.yaml'),
      runtimesDir: path.join(dir, 'runtimes'),
      modelManagerConfig: {
        kubernetes: { clusters: { local: { gatewayBaseUrl: `${GATEWAY}/` } } },
      },
    });
    // The shared Gateway its routes attach to (plumbing gateway_name / gateway_namespace), as the
    // platform team would have created it, admitting routes from the models' namespaces: without
    // it, or with a listener admitting its own namespace only, preflight refuses the deploy.
    const { gateway_name: name, gateway_namespace: namespace } =
      fourth.runtimes[runtimeName].config;
    if (!ctx.kube.store.namespaces().includes(String(namespace)))
      ctx.kube.store.createNamespace(String(namespace));
    ctx.kube.store.put({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'Gateway',
      metadata: { name: String(name), namespace: String(namespace) },
      spec: {
        gatewayClassName: 'shared',
        listeners: [
          {
            name: 'http',
            protocol: 'HTTP',
            port: 80,
            allowedRoutes: { namespaces: { from: 'All' } },
          },
        ],
      },
    });
  }, 120_000);
  afterAll(async () => {
    await ctx?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);
  const api = () => request(ctx.server);

  it('the models list shows its models with their own categories, beside the other engines', async () => {
    const list = await api()
      .get('/api/model-manager/models')
      .set('Authorization', ALICE)
      .expect(200);
    const runtimes = new Set(list.body.items.map((m: any) => m.runtime));
    expect(runtimes.size).toBe(4);
    const ours = list.body.items.filter((m: any) => m.runtime === runtimeName);
    expect(ours.map((m: any) => [m.name, m.category]).sort()).toEqual(
      Object.values(fourth.models)
        .map(m => [m.name, m.config.category])
        .sort(),
    );
    for (const m of ours) expect(m.kind).toBe('InferenceService');
  });

  it('deploys a model (InferenceService with the new plumbing key, its HTTPRoute), then shows it Ready at the endpoint its routing rule gives', async () => {
    const [model] = Object.keys(fourth.models);
    const res = await api()
      .post(`/api/model-manager/models/${model}/deploy`)
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' });
    expect(res.status).toBe(200);
    expect(
      res.body.objects.map((o: any) => [o.kind, o.name, o.action]),
    ).toEqual([
      ['InferenceService', model, 'created'],
      ['HTTPRoute', model, 'created'],
    ]);
    // The endpoint in the deploy's answer follows the engine's own rule (endpoints.<routing>).
    expect(res.body.endpoint).toBe(`${GATEWAY}/models/${model}/v1`);

    const isvcRef = {
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      name: model,
      namespace: 'models',
    };
    const isvc = ctx.kube.store.get(isvcRef) as any;
    const container = isvc.spec.predictor.containers[0];
    expect(container.ports).toEqual([
      {
        containerPort: profile.plumbing[NEW_KEY].default,
        protocol: 'TCP',
      },
    ]);
    expect(isvc.metadata.annotations['model-manager.io/routing']).toBe(routing);
    const route = ctx.kube.store.get({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      name: model,
      namespace: 'models',
    }) as any;
    // The API server fills the CRD's defaults (kind Service, group "", weight 1).
    expect(route.spec.rules[0].backendRefs).toEqual([
      expect.objectContaining({
        kind: 'Service',
        name: `${model}-predictor`,
        port: 80,
      }),
    ]);

    ctx.kube.store.setStatus(isvcRef, {
      url: `http://${model}-predictor.models.svc`,
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          lastTransitionTime: '2026-12-01T00:00:00Z',
        },
      ],
    });
    const status = await api()
      .get(`/api/model-manager/models/${model}/status`)
      .set('Authorization', ALICE)
      .expect(200);
    expect(status.body.items[0]).toMatchObject({
      cluster: 'local',
      namespace: 'models',
      found: true,
      summary: { ready: true, problems: [] },
      endpoint: {
        source: 'gateway',
        baseUrl: `${GATEWAY}/models/${model}/v1`,
      },
    });
  });
});
