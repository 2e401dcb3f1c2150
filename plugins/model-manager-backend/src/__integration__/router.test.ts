import { mockCredentials } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import request from 'supertest';
import {
  startModelManager,
  useModelManager,
} from '../__testUtils__/testBackend';

const ALICE = mockCredentials.user.header('user:default/alice');

describe('model-manager router', () => {
  const ctx = useModelManager();
  beforeEach(() => {
    ctx.kube.faults.clear();
    ctx.kube.resetRequests();
    ctx.events.length = 0;
  });
  const api = () => request(ctx.server);
  const live = (
    kind: string,
    apiVersion: string,
    name: string,
    namespace?: string,
  ) => ctx.kube.objects.get({ apiVersion, kind, name, namespace });

  it('refuses requests without credentials with 401', async () => {
    const res = await api()
      .get('/api/model-manager/models')
      .set('Authorization', mockCredentials.none.header());
    expect(res.status).toBe(401);
    expect(res.body.error.name).toBe('AuthenticationError');
  });

  it('lists models and runtimes', async () => {
    const models = await api()
      .get('/api/model-manager/models')
      .set('Authorization', ALICE);
    expect(models.status).toBe(200);
    expect(models.body.items).toHaveLength(9);
    expect(
      models.body.items.find((m: any) => m.name === 'llama-3-1-8b-instruct'),
    ).toMatchObject({
      runtime: 'vllm',
      version: '0.19.1',
      versionSource: 'model',
      kind: 'LLMInferenceService',
    });
    const vllm = await api()
      .get('/api/model-manager/runtimes/vllm')
      .set('Authorization', ALICE);
    expect(vllm.body).toMatchObject({
      defaultVersion: '0.24.0',
      versioned: true,
      versions: [
        { version: '0.24.0', default: true },
        { version: '0.19.1', default: false },
      ],
    });
    expect(vllm.body.categories.map((c: any) => c.name)).toEqual([
      'llm',
      'embed',
      'rerank',
      'vlm',
    ]);
    expect(vllm.body.plumbing.routing).toMatchObject({
      value: 'epp',
      source: expect.stringMatching(
        /^runtimes\/vllm\/values\.yaml:\d+:1 routing$/,
      ),
    });
  });

  it('says whether models.yaml loaded and how big the catalog served is', async () => {
    const res = await api()
      .get('/api/model-manager/status')
      .set('Authorization', ALICE);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      at: expect.any(String),
      models: 9,
      runtimes: 2,
    });
  });

  it('404s unknown models and runtimes', async () => {
    expect(
      (
        await api()
          .get('/api/model-manager/models/nope')
          .set('Authorization', ALICE)
      ).status,
    ).toBe(404);
    expect(
      (
        await api()
          .get('/api/model-manager/runtimes/tgi')
          .set('Authorization', ALICE)
      ).status,
    ).toBe(404);
    const res = await api()
      .get('/api/model-manager/models/nope/resolved')
      .set('Authorization', ALICE);
    expect(res.status).toBe(404);
    expect(res.body.error.message).toMatch(/unknown model 'nope'/);
  });

  it('resolves with overrides and says which layer set each value', async () => {
    const res = await api()
      .get('/api/model-manager/models/qwen2-5-7b-instruct/resolved')
      .query({
        serverVersion: '0.19.1',
        env: 'VLLM_LOGGING_LEVEL=DEBUG',
        arg: '--max-model-len=4096',
      })
      .set('Authorization', ALICE);
    expect(res.status).toBe(200);
    expect(res.body.server.version).toMatchObject({
      value: '0.19.1',
      origin: { layer: 'override' },
    });
    const row = (key: string) =>
      res.body.explain.find((r: any) => r.key === key);
    expect(row('env.VLLM_LOGGING_LEVEL')).toMatchObject({
      value: 'DEBUG',
      layer: 'override',
      overrode: [{ value: 'INFO', layer: 'runtime-env' }],
    });
    expect(row('args --max-model-len')).toMatchObject({
      value: '--max-model-len=4096',
      layer: 'override',
      overrode: [{ value: '--max-model-len=8192', layer: 'model' }],
    });
    expect(row('image')).toMatchObject({
      value: 'docker.io/vllm/vllm-openai-cpu:v0.19.1',
      layer: 'version',
    });
    // What the category serves, from the engine profile's api.operations (the client examples).
    expect(res.body.operations).toEqual(['chat', 'completions']);
  });

  it('answers 400 naming the field for a bad override', async () => {
    const res = await api()
      .get('/api/model-manager/models/bge-small-en-v1-5-ov/resolved')
      .query({ serverVersion: '1.0' })
      .set('Authorization', ALICE);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(
      /serverVersion: runtime openvino is flat/,
    );
  });

  it('renders manifests', async () => {
    const res = await api()
      .post('/api/model-manager/models/phi-3-5-mini-instruct-int4-ov/render')
      .set('Authorization', ALICE)
      .send({ namespace: 'models' });
    expect(res.status).toBe(200);
    expect(res.body.items.map((o: any) => o.kind)).toEqual([
      'ClusterServingRuntime',
      'PersistentVolumeClaim',
      'Job',
      'InferenceService',
      'Backend',
      'AIServiceBackend',
      'AIGatewayRoute',
    ]);
  });

  it('a dry run applies nothing and is recorded', async () => {
    const res = await api()
      .post('/api/model-manager/models/qwen2-5-7b-instruct/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models', dryRun: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: true,
      action: 'dry-run',
      objects: [
        {
          kind: 'LLMInferenceService',
          name: 'qwen2-5-7b-instruct',
          action: 'created',
        },
      ],
    });
    expect(
      await live(
        'LLMInferenceService',
        'serving.kserve.io/v1alpha2',
        'qwen2-5-7b-instruct',
        'models',
      ),
    ).toBeUndefined();
    const history = await api()
      .get('/api/model-manager/models/qwen2-5-7b-instruct/deployments')
      .set('Authorization', ALICE);
    // Dry runs are kept without a revision number.
    expect(res.body.revision).toBeUndefined();
    expect(history.body.items[0]).toMatchObject({
      action: 'dry-run',
      outcome: 'succeeded',
      actor: 'user:default/alice',
    });
    expect(history.body.items[0].revision).toBeUndefined();
  });

  it('deploys an OpenVINO model: ClusterServingRuntime and weights claim when absent, download Job, InferenceService, route objects', async () => {
    const res = await api()
      .post('/api/model-manager/models/bge-small-en-v1-5-ov/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' });
    expect(res.status).toBe(200);
    expect(
      res.body.objects.map((o: any) => [o.kind, o.name, o.action]),
    ).toEqual([
      ['ClusterServingRuntime', 'openvino-runtime', 'created'],
      ['PersistentVolumeClaim', 'model-manager-weights', 'created'],
      ['Job', 'bge-small-en-v1-5-ov-download', 'created'],
      ['InferenceService', 'bge-small-en-v1-5-ov', 'created'],
      ['Backend', 'bge-small-en-v1-5-ov', 'created'],
      ['AIServiceBackend', 'bge-small-en-v1-5-ov', 'created'],
      ['AIGatewayRoute', 'bge-small-en-v1-5-ov', 'created'],
    ]);
    expect(
      await live(
        'PersistentVolumeClaim',
        'v1',
        'model-manager-weights',
        'models',
      ),
    ).toMatchObject({
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '100Gi' } },
      },
    });
    const isvc = (await live(
      'InferenceService',
      'serving.kserve.io/v1beta1',
      'bge-small-en-v1-5-ov',
      'models',
    ))!;
    expect(isvc.metadata).toMatchObject({
      labels: { 'backstage.io/kubernetes-id': 'bge-small-en-v1-5-ov' },
    });
    expect((isvc.metadata as any).managedFields[0]).toMatchObject({
      manager: 'model-manager',
      operation: 'Apply',
    });

    // A second model finds the runtime and the namespace's weights claim present and leaves them alone.
    const second = await api()
      .post('/api/model-manager/models/bge-reranker-base-ov/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' });
    expect(second.body.objects.map((o: any) => o.action)).toEqual([
      'exists',
      'exists',
      'created',
      'created',
      'created',
      'created',
      'created',
    ]);
    // Re-deploying the same model changes nothing.
    const again = await api()
      .post('/api/model-manager/models/bge-small-en-v1-5-ov/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' });
    expect(again.body.objects.map((o: any) => [o.kind, o.action])).toEqual([
      ['ClusterServingRuntime', 'exists'],
      ['PersistentVolumeClaim', 'exists'],
      ['Job', 'unchanged'],
      ['InferenceService', 'unchanged'],
      ['Backend', 'unchanged'],
      ['AIServiceBackend', 'unchanged'],
      ['AIGatewayRoute', 'unchanged'],
    ]);
    expect(ctx.events.map(e => [e.eventId, e.outcome, e.meta.actor])).toEqual([
      ['model-deploy', 'success', 'user:default/alice'],
      ['model-deploy', 'success', 'user:default/alice'],
      ['model-deploy', 'success', 'user:default/alice'],
    ]);
  });

  it('checks several objects with a dry run of each (concurrently) before applying any; reads a single object, then applies it', async () => {
    // The requests for the model's objects (not preflight's reads of the namespace, quotas, nodes,
    // discovery, KServe's config and its Gateway, which preflight.test.ts covers).
    const preflightRead =
      /^\/apis?\/[^/]+(\/[^/]+)?$|\/namespaces\/[^/]+$|\/(resourcequotas|limitranges|nodes|storageclasses)$|\/configmaps\/inferenceservice-config$|\/gateways\/kserve-ingress-gateway$/;
    const sequence = () =>
      ctx.kube.requests
        .filter(r => r.method !== 'GET' || !preflightRead.test(r.path))
        .map(
          r =>
            `${
              r.method === 'PATCH'
                ? r.query.dryRun
                  ? 'dry-run'
                  : 'apply'
                : r.method
            } ${r.path.split('/').slice(-2).join('/')}`,
        );
    const target = { cluster: 'local', namespace: 'default' };
    await api()
      .post('/api/model-manager/models/bge-reranker-v2-m3/deploy')
      .set('Authorization', ALICE)
      .send(target)
      .expect(200);
    expect(sequence()).toEqual([
      'GET llminferenceservices/bge-reranker-v2-m3',
      'apply llminferenceservices/bge-reranker-v2-m3',
    ]);
    const again = await api()
      .post('/api/model-manager/models/bge-reranker-v2-m3/deploy')
      .set('Authorization', ALICE)
      .send(target);
    expect(again.body.objects.map((o: any) => o.action)).toEqual(['unchanged']);

    // Without the shared ClusterServingRuntime: it is read, found missing, checked and applied too.
    await ctx.kube.objects.delete({
      apiVersion: 'serving.kserve.io/v1alpha1',
      kind: 'ClusterServingRuntime',
      name: 'openvino-runtime',
    });
    ctx.kube.resetRequests();
    const ov = await api()
      .post('/api/model-manager/models/phi-3-5-mini-instruct-int4-ov/deploy')
      .set('Authorization', ALICE)
      .send(target);
    expect(ov.body.objects.map((o: any) => o.action)).toEqual([
      'created',
      'created',
      'created',
      'created',
      'created',
      'created',
      'created',
    ]);
    const runtime = [
      'dry-run clusterservingruntimes/openvino-runtime',
      'dry-run persistentvolumeclaims/model-manager-weights',
    ];
    // The checks run concurrently (any order among themselves), all before the first apply;
    // the applies go in object order.
    const firstApply = sequence().findIndex(r => r.startsWith('apply'));
    expect(sequence().slice(0, firstApply).sort()).toEqual(
      [
        // Preflight: the weights claim (or a StorageClass to bind it), the routes' Gateway and
        // its class (served by Envoy Gateway), Envoy Gateway's config (its Backend API), and
        // the InferenceService if it is there (KServe keeps its deployment mode).
        'GET persistentvolumeclaims/model-manager-weights',
        'GET gateways/envoy-ai-gateway-basic',
        'GET inferenceservices/phi-3-5-mini-instruct-int4-ov',
        'GET gatewayclasses/envoy-ai-gateway-basic',
        'GET configmaps/envoy-gateway-config',
        'GET clusterservingruntimes/openvino-runtime',
        'GET persistentvolumeclaims/model-manager-weights',
        ...runtime,
        'dry-run inferenceservices/phi-3-5-mini-instruct-int4-ov',
        'dry-run jobs/phi-3-5-mini-instruct-int4-ov-download',
        'dry-run backends/phi-3-5-mini-instruct-int4-ov',
        'dry-run aiservicebackends/phi-3-5-mini-instruct-int4-ov',
        'dry-run aigatewayroutes/phi-3-5-mini-instruct-int4-ov',
      ].sort(),
    );
    expect(sequence().slice(firstApply)).toEqual([
      ...runtime.map(r => r.replace('dry-run', 'apply')),
      'apply jobs/phi-3-5-mini-instruct-int4-ov-download',
      'apply inferenceservices/phi-3-5-mini-instruct-int4-ov',
      'apply backends/phi-3-5-mini-instruct-int4-ov',
      'apply aiservicebackends/phi-3-5-mini-instruct-int4-ov',
      'apply aigatewayroutes/phi-3-5-mini-instruct-int4-ov',
    ]);
  });

  it('deploys a vLLM model, then a changed request reconfigures it; diff and history follow', async () => {
    const first = await api()
      .post('/api/model-manager/models/llama-3-1-8b-instruct/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' });
    expect(first.body.objects).toEqual([
      expect.objectContaining({
        kind: 'LLMInferenceService',
        action: 'created',
      }),
    ]);
    const diffClean = await api()
      .get('/api/model-manager/models/llama-3-1-8b-instruct/diff')
      .query({ cluster: 'local', namespace: 'models' })
      .set('Authorization', ALICE);
    expect(diffClean.body).toMatchObject({
      inSync: true,
      objects: [{ exists: true, changes: [] }],
    });
    const diffChanged = await api()
      .get('/api/model-manager/models/llama-3-1-8b-instruct/diff')
      .query({ cluster: 'local', namespace: 'models', serverVersion: '0.24.0' })
      .set('Authorization', ALICE);
    expect(diffChanged.body.inSync).toBe(false);
    expect(diffChanged.body.objects[0].changes).toContainEqual({
      path: '.spec.template.containers[name=main].image',
      rendered: 'docker.io/vllm/vllm-openai-cpu:v0.24.0',
      live: 'docker.io/vllm/vllm-openai-cpu:v0.19.1',
    });

    const second = await api()
      .post('/api/model-manager/models/llama-3-1-8b-instruct/deploy')
      .set('Authorization', ALICE)
      .send({
        cluster: 'local',
        namespace: 'models',
        serverVersion: '0.24.0',
        env: { EXTRA: '1' },
      });
    expect(second.body).toMatchObject({
      ok: true,
      serverVersion: '0.24.0',
      objects: [{ action: 'configured' }],
    });
    const obj = (await live(
      'LLMInferenceService',
      'serving.kserve.io/v1alpha2',
      'llama-3-1-8b-instruct',
      'models',
    )) as any;
    expect(obj.spec.template.containers[0].image).toBe(
      'docker.io/vllm/vllm-openai-cpu:v0.24.0',
    );
    expect(obj.spec.template.containers[0].env).toContainEqual({
      name: 'EXTRA',
      value: '1',
    });

    // Asked first (the history dialog): a rollback dry run says what it would change, and is
    // not recorded (the history below has no dry-run row).
    const preview = await api()
      .post('/api/model-manager/models/llama-3-1-8b-instruct/rollback')
      .set('Authorization', ALICE)
      .send({ revision: first.body.revision, dryRun: true });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ ok: true, action: 'dry-run' });
    expect(preview.body.revision).toBeUndefined();
    expect(JSON.stringify(preview.body.objects[0].changes)).toContain('EXTRA');

    // Roll back to the first revision: the stored manifests are re-applied.
    const rollback = await api()
      .post('/api/model-manager/models/llama-3-1-8b-instruct/rollback')
      .set('Authorization', ALICE)
      .send({ revision: first.body.revision });
    expect(rollback.status).toBe(200);
    expect(rollback.body).toMatchObject({
      action: 'rollback',
      serverVersion: '0.19.1',
      objects: [{ action: 'configured' }],
    });
    const back = (await live(
      'LLMInferenceService',
      'serving.kserve.io/v1alpha2',
      'llama-3-1-8b-instruct',
      'models',
    )) as any;
    expect(back.spec.template.containers[0].image).toBe(
      'docker.io/vllm/vllm-openai-cpu:v0.19.1',
    );
    expect(
      back.spec.template.containers[0].env.map((e: any) => e.name),
    ).not.toContain('EXTRA');

    const history = await api()
      .get('/api/model-manager/models/llama-3-1-8b-instruct/deployments')
      .set('Authorization', ALICE);
    expect(
      history.body.items.map((r: any) => [
        r.action,
        r.outcome,
        r.serverVersion,
      ]),
    ).toEqual([
      ['rollback', 'succeeded', '0.19.1'],
      ['deploy', 'succeeded', '0.24.0'],
      ['deploy', 'succeeded', '0.19.1'],
    ]);
    expect(history.body.items[0].rollbackOf).toBe(first.body.revision);

    // Undeploy removes the model's objects and is recorded too.
    const undeploy = await api()
      .delete('/api/model-manager/models/llama-3-1-8b-instruct/deployment')
      .query({ cluster: 'local', namespace: 'models' })
      .set('Authorization', ALICE);
    expect(undeploy.body).toMatchObject({
      ok: true,
      action: 'undeploy',
      objects: [{ kind: 'LLMInferenceService', action: 'deleted' }],
    });
    expect(
      await live(
        'LLMInferenceService',
        'serving.kserve.io/v1alpha2',
        'llama-3-1-8b-instruct',
        'models',
      ),
    ).toBeUndefined();
    const rollbackOfUndeploy = await api()
      .post('/api/model-manager/models/llama-3-1-8b-instruct/rollback')
      .set('Authorization', ALICE)
      .send({ revision: undeploy.body.revision });
    expect(rollbackOfUndeploy.status).toBe(400);
  });

  it('reports the KServe status where the model is deployed, in words', async () => {
    await api()
      .post('/api/model-manager/models/qwen3-30b-a3b/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' })
      .expect(200);
    const before = await api()
      .get('/api/model-manager/models/qwen3-30b-a3b/status')
      .set('Authorization', ALICE);
    expect(before.body.items).toEqual([
      expect.objectContaining({
        cluster: 'local',
        namespace: 'models',
        found: true,
      }),
    ]);
    expect(before.body.items[0].summary.ready).toBeUndefined();
    expect(before.body.items[0].summary.problems).toEqual([
      expect.stringMatching(/has not reported a Ready condition/),
    ]);
    await ctx.kube.objects.setStatus(
      {
        apiVersion: 'serving.kserve.io/v1alpha2',
        kind: 'LLMInferenceService',
        namespace: 'models',
        name: 'qwen3-30b-a3b',
      },
      {
        url: 'http://qwen3-30b-a3b.models.svc',
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            reason: 'WorkloadsNotReady',
            lastTransitionTime: '2026-11-30T00:00:00Z',
          },
          {
            type: 'WorkloadsReady',
            status: 'False',
            reason: 'ImagePullBackOff',
            lastTransitionTime: '2026-11-30T00:00:00Z',
          },
          {
            type: 'RouterReady',
            status: 'True',
            lastTransitionTime: '2026-11-30T00:00:00Z',
          },
        ],
      },
    );
    const after = await api()
      .get('/api/model-manager/models/qwen3-30b-a3b/status')
      .set('Authorization', ALICE);
    expect(after.body.items[0].summary).toMatchObject({
      ready: false,
      url: 'http://qwen3-30b-a3b.models.svc',
      problems: [
        expect.stringMatching(
          /^WorkloadsReady is False: the vLLM pods are not ready.*ImagePullBackOff/,
        ),
      ],
    });
  });

  const hostile: Array<[string, object, RegExp]> = [
    [
      'namespace not a DNS label',
      { cluster: 'local', namespace: 'Models_1' },
      /namespace: namespace 'Models_1' is not a DNS-1123 label/,
    ],
    [
      'missing cluster',
      { namespace: 'models' },
      /cluster: cluster is required/,
    ],
    [
      'unknown cluster',
      { cluster: 'prod', namespace: 'models' },
      /unknown cluster 'prod'; clusters: local/,
    ],
    [
      'env name not a C identifier',
      { cluster: 'local', namespace: 'models', env: { 'A-B': '1' } },
      /env\.A-B: env name 'A-B' is not a C identifier/,
    ],
    [
      'newline in an arg',
      { cluster: 'local', namespace: 'models', args: ['--a=1\n--b=2'] },
      /args\[0\]: arg must be a single line/,
    ],
    [
      'wrong JSON type',
      { cluster: 'local', namespace: 'models', dryRun: 'yes' },
      /dryRun: dryRun must be true or false/,
    ],
    [
      'unknown field',
      { cluster: 'local', namespace: 'models', serverVerison: '0.19.1' },
      /unknown field\(s\) 'serverVerison'/,
    ],
    [
      'unknown version',
      { cluster: 'local', namespace: 'models', serverVersion: '9.9.9' },
      /unknown server version '9\.9\.9'/,
    ],
  ];
  it.each(hostile)(
    'rejects %s before anything reaches the cluster',
    async (_name, body, message) => {
      const res = await api()
        .post('/api/model-manager/models/qwen2-5-7b-instruct/deploy')
        .set('Authorization', ALICE)
        .send(body);
      expect([400, 404]).toContain(res.status);
      expect(res.body.error.message).toMatch(message);
      expect(ctx.kube.requestCount).toBe(0);
      expect(ctx.events).toEqual([]);
    },
  );

  // Every route that takes a namespace checks it with the common package's namespaceProblem.
  it.each([
    ['POST', '/models/bge-small-en-v1-5-ov/render', { namespace: 'Models' }],
    ['POST', '/models/bge-m3/deploy', { cluster: 'local', namespace: 'ns-' }],
    ['GET', '/models/bge-m3/diff?cluster=local&namespace=team_a', undefined],
    [
      'DELETE',
      '/models/bge-m3/deployment?cluster=local&namespace=a%20b',
      undefined,
    ],
    ['GET', '/fleet?namespace=ns.sub', undefined],
    ['GET', '/models/bge-m3/fleet?namespace=Models', undefined],
    [
      'GET',
      `/rollouts/plan?runtime=vllm&namespace=${'n'.repeat(64)}`,
      undefined,
    ],
  ])(
    '%s %s: a namespace that is not a DNS-1123 label is a 400',
    async (method, url, body) => {
      const path = `/api/model-manager${url}`;
      const req =
        method === 'POST'
          ? api().post(path).send(body!)
          : method === 'DELETE'
          ? api().delete(path)
          : api().get(path);
      const res = await req.set('Authorization', ALICE);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(
        /namespace '.*' (is not a DNS-1123 label|has 64 characters)/,
      );
      expect(ctx.kube.requestCount).toBe(0);
    },
  );

  it('a field owned by another manager is a 409 naming it; force takes it over', async () => {
    await api()
      .post('/api/model-manager/models/bge-m3/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' })
      .expect(200);
    // Someone scales the model by hand with their own field manager.
    const kubectl = await fetch(
      `${ctx.kube.url}/apis/serving.kserve.io/v1alpha2/namespaces/models/llminferenceservices/bge-m3?fieldManager=kubectl&force=true`,
      {
        method: 'PATCH',
        headers: {
          'Content-Type': 'application/apply-patch+yaml',
          Authorization: 'Bearer admin-token',
        },
        body: JSON.stringify({
          apiVersion: 'serving.kserve.io/v1alpha2',
          kind: 'LLMInferenceService',
          metadata: { name: 'bge-m3', namespace: 'models' },
          spec: {
            template: {
              containers: [
                { name: 'main', resources: { limits: { cpu: '12' } } },
              ],
            },
          },
        }),
      },
    );
    expect(kubectl.status).toBe(200);
    const res = await api()
      .post('/api/model-manager/models/bge-m3/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(
      /LLMInferenceService models\/bge-m3: fields are owned by another field manager \(kubectl\): \.spec\.template\.containers\[name="main"\]\.resources\.limits\.cpu.*force: true/,
    );
    expect(res.body.deployment.objects[0]).toMatchObject({
      action: 'failed',
      conflicts: [{ manager: 'kubectl' }],
    });
    const forced = await api()
      .post('/api/model-manager/models/bge-m3/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models', force: true });
    expect(forced.status).toBe(200);
    const history = await api()
      .get('/api/model-manager/models/bge-m3/deployments')
      .set('Authorization', ALICE);
    expect(history.body.items.map((r: any) => r.outcome)).toEqual([
      'succeeded',
      'failed',
      'succeeded',
    ]);
  });

  it('retries a 503 and succeeds', async () => {
    ctx.kube.faults.inject({
      kind: 'status',
      code: 503,
      times: 2,
      match: { method: 'PATCH' },
    });
    const res = await api()
      .post('/api/model-manager/models/bge-reranker-v2-m3/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' });
    expect(res.status).toBe(200);
    expect(res.body.objects[0].action).toBe('created');
  });

  it('gives up after the retry bound, naming the object; nothing applied', async () => {
    ctx.kube.faults.inject({
      kind: 'status',
      code: 503,
      times: 100,
      match: { method: 'PATCH' },
    });
    const res = await api()
      .post('/api/model-manager/models/qwen2-5-vl-7b-instruct/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' });
    expect(res.status).toBe(503);
    expect(res.body.error.message).toMatch(
      /^LLMInferenceService models\/qwen2-5-vl-7b-instruct: the Kubernetes API is unavailable after 4 attempt\(s\).*nothing was applied/,
    );
    expect(ctx.kube.requests.filter(r => r.method === 'PATCH')).toHaveLength(4);
  });

  it('a failure mid-deploy says exactly which objects were applied and which were not', async () => {
    // Fail only the real apply of the InferenceService (its dry run passes).
    ctx.kube.faults.inject({
      kind: 'status',
      code: 500,
      times: 100,
      match: {
        method: 'PATCH',
        pathIncludes:
          'inferenceservices/phi-3-5-mini-instruct-int4-ov?fieldManager',
      },
    });
    const res = await api()
      .post('/api/model-manager/models/phi-3-5-mini-instruct-int4-ov/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' });
    expect(res.status).toBe(503);
    expect(
      res.body.deployment.objects.map((o: any) => [o.kind, o.action]),
    ).toEqual([
      ['ClusterServingRuntime', 'exists'],
      ['PersistentVolumeClaim', 'exists'],
      ['Job', 'created'],
      ['InferenceService', 'failed'],
      ['Backend', 'not-applied'],
      ['AIServiceBackend', 'not-applied'],
      ['AIGatewayRoute', 'not-applied'],
    ]);
    expect(res.body.error.message).toMatch(
      /applied before it: ClusterServingRuntime openvino-runtime, PersistentVolumeClaim models\/model-manager-weights, Job models\/phi-3-5-mini-instruct-int4-ov-download/,
    );
    // A re-run once the API recovers converges.
    ctx.kube.faults.clear();
    const rerun = await api()
      .post('/api/model-manager/models/phi-3-5-mini-instruct-int4-ov/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' });
    expect(rerun.body.objects.map((o: any) => o.action)).toEqual([
      'exists',
      'exists',
      'unchanged',
      'created',
      'created',
      'created',
      'created',
    ]);
  });

  describe("the namespace's weights claim (create-if-absent: shared by the namespace's OpenVINO models)", () => {
    // A namespace of its own: no OpenVINO model was deployed there before.
    const NS = 'weights';
    beforeAll(async () => {
      const res = await fetch(`${ctx.kube.url}/api/v1/namespaces`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Authorization: 'Bearer admin-token',
        },
        body: JSON.stringify({
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: NS },
        }),
      });
      expect(res.status).toBe(201);
    });
    const claim = async (namespace: string) =>
      (await live(
        'PersistentVolumeClaim',
        'v1',
        'model-manager-weights',
        namespace,
      )) as any;
    const deployTo = (namespace: string) =>
      api()
        .post('/api/model-manager/models/bge-small-en-v1-5-ov/deploy')
        .set('Authorization', ALICE)
        .send({ cluster: 'local', namespace });
    const pvcAction = (res: request.Response) =>
      res.body.objects.find((o: any) => o.kind === 'PersistentVolumeClaim')
        .action;

    it('absent: the first OpenVINO deploy to a namespace creates it', async () => {
      expect(await claim(NS)).toBeUndefined();
      const res = await deployTo(NS);
      expect(res.status).toBe(200);
      expect(pvcAction(res)).toBe('created');
      expect((await claim(NS)).spec).toMatchObject({
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '100Gi' } },
      });
    });

    it('present: left alone (exists), even when it differs from what would be rendered (someone resized it)', async () => {
      // Someone made it 500Gi. A Pending claim cannot be resized (only a Bound one, and no
      // volume binds here), so it is replaced by one of that size.
      const ref = {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        name: 'model-manager-weights',
        namespace: NS,
      };
      const existing = (await ctx.kube.objects.get(ref)) as any;
      await ctx.kube.objects.delete(ref);
      await ctx.kube.objects.put({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: {
          name: ref.name,
          namespace: NS,
          labels: existing.metadata.labels,
        },
        spec: {
          ...existing.spec,
          resources: { requests: { storage: '500Gi' } },
        },
      });
      const before = (await claim(NS)).metadata.resourceVersion;
      ctx.kube.resetRequests();
      const res = await deployTo(NS);
      expect(pvcAction(res)).toBe('exists');
      expect(await claim(NS)).toMatchObject({
        metadata: { resourceVersion: before },
        spec: { resources: { requests: { storage: '500Gi' } } },
      });
      expect(
        ctx.kube.requests
          .filter(r => r.path.includes('persistentvolumeclaims'))
          .map(r => r.method),
      ).toEqual(['GET', 'GET']); // preflight's read, then the applier's: never a write
      // The diff shows the difference, but a deploy cannot change a shared object: still in sync.
      const diff = await api()
        .get('/api/model-manager/models/bge-small-en-v1-5-ov/diff')
        .query({ cluster: 'local', namespace: NS })
        .set('Authorization', ALICE);
      expect(
        diff.body.objects.find((o: any) => o.kind === 'PersistentVolumeClaim')
          .changes,
      ).toEqual([
        {
          path: '.spec.resources.requests.storage',
          rendered: '100Gi',
          live: '500Gi',
        },
      ]);
      expect(
        diff.body.objects
          .filter((o: any) => o.changes.length > 0)
          .map((o: any) => o.kind),
      ).toEqual(['PersistentVolumeClaim']);
      expect(diff.body.inSync).toBe(true);
    });

    it("undeploy deletes the model's own objects and leaves the claim and the ClusterServingRuntime", async () => {
      const res = await api()
        .delete('/api/model-manager/models/bge-small-en-v1-5-ov/deployment')
        .query({ cluster: 'local', namespace: NS })
        .set('Authorization', ALICE);
      expect(res.status).toBe(200);
      expect(res.body.objects.map((o: any) => [o.kind, o.action])).toEqual([
        ['AIGatewayRoute', 'deleted'],
        ['AIServiceBackend', 'deleted'],
        ['Backend', 'deleted'],
        ['InferenceService', 'deleted'],
        ['Job', 'deleted'],
      ]);
      expect(await claim(NS)).toBeDefined();
      expect(
        await live(
          'ClusterServingRuntime',
          'serving.kserve.io/v1alpha1',
          'openvino-runtime',
        ),
      ).toBeDefined();
      expect(
        await live(
          'AIGatewayRoute',
          'aigateway.envoyproxy.io/v1beta1',
          'bge-small-en-v1-5-ov',
          NS,
        ),
      ).toBeUndefined();
      // The diff says which objects are shared, so an undeploy dry run can say the same.
      const diff = await api()
        .get('/api/model-manager/models/bge-small-en-v1-5-ov/diff')
        .query({ cluster: 'local', namespace: NS })
        .set('Authorization', ALICE);
      expect(
        diff.body.objects
          .filter((o: any) => o.applyPolicy === 'create-if-absent')
          .map((o: any) => [o.kind, o.exists]),
      ).toEqual([
        ['ClusterServingRuntime', true],
        ['PersistentVolumeClaim', true],
      ]);
    });
  });

  it('a missing namespace fails in preflight and applies nothing', async () => {
    await api()
      .post('/api/model-manager/models/bge-small-en-v1-5-ov/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' })
      .expect(200);
    // Past the portal's preflight (which refuses a missing namespace, see preflight.test.ts), the
    // applier's own dry run still refuses it before anything is applied.
    const res = await api()
      .post('/api/model-manager/models/bge-small-en-v1-5-ov/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'nowhere', skipPreflight: true });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toMatch(
      /namespaces "nowhere" not found; create the namespace first \(preflight \(dry run\), nothing was applied\)/,
    );
    expect(res.body.deployment.objects.map((o: any) => o.action)).toEqual([
      'exists',
      'failed',
      'not-applied',
      'not-applied',
      'not-applied',
      'not-applied',
      'not-applied',
    ]);
    expect(res.body.error.message).toMatch(
      /^PersistentVolumeClaim nowhere\/model-manager-weights: /,
    );
    expect(
      await live('Job', 'batch/v1', 'bge-small-en-v1-5-ov-download', 'nowhere'),
    ).toBeUndefined();
  });
});

describe('model-manager router with a denying permission policy', () => {
  it('answers 403 and records a denied audit event; nothing reaches the cluster', async () => {
    const ctx = await startModelManager({ permission: AuthorizeResult.DENY });
    try {
      ctx.kube.resetRequests();
      const res = await request(ctx.server)
        .post('/api/model-manager/models/qwen2-5-7b-instruct/deploy')
        .set('Authorization', ALICE)
        .send({ cluster: 'local', namespace: 'models' });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatchObject({
        name: 'NotAllowedError',
        message:
          'user:default/alice may not model-manager.model.deploy model qwen2-5-7b-instruct (component:default/qwen2-5-7b-instruct): the permission policy denied it',
      });
      expect(ctx.events).toEqual([
        expect.objectContaining({
          eventId: 'model-deploy',
          outcome: 'fail',
          meta: expect.objectContaining({
            actor: 'user:default/alice',
            model: 'qwen2-5-7b-instruct',
          }),
        }),
      ]);
      const undeploy = await request(ctx.server)
        .delete('/api/model-manager/models/qwen2-5-7b-instruct/deployment')
        .query({ cluster: 'local', namespace: 'models' })
        .set('Authorization', ALICE);
      expect(undeploy.status).toBe(403);
      expect(ctx.kube.requestCount).toBe(0);
      // Reading stays allowed.
      expect(
        (
          await request(ctx.server)
            .get('/api/model-manager/models')
            .set('Authorization', ALICE)
        ).status,
      ).toBe(200);
    } finally {
      await ctx.stop();
    }
  });
});

describe('a cluster with a namespace allowlist', () => {
  const ctx = useModelManager({
    modelManagerConfig: {
      kubernetes: {
        retryBaseDelayMs: 1,
        requestTimeoutMs: 5000,
        clusters: { local: { namespaces: ['default', 'models'] } },
      },
    },
  });

  it.each([
    [
      'deploy',
      (api: request.SuperTest<request.Test>) =>
        api
          .post('/api/model-manager/models/bge-m3/deploy')
          .set('Authorization', ALICE)
          .send({ cluster: 'local', namespace: 'kube-system' }),
    ],
    [
      'dry run',
      (api: request.SuperTest<request.Test>) =>
        api
          .post('/api/model-manager/models/bge-m3/deploy')
          .set('Authorization', ALICE)
          .send({ cluster: 'local', namespace: 'kube-system', dryRun: true }),
    ],
    [
      'diff',
      (api: request.SuperTest<request.Test>) =>
        api
          .get('/api/model-manager/models/bge-m3/diff')
          .query({ cluster: 'local', namespace: 'kube-system' })
          .set('Authorization', ALICE),
    ],
    [
      'undeploy',
      (api: request.SuperTest<request.Test>) =>
        api
          .delete('/api/model-manager/models/bge-m3/deployment')
          .query({ cluster: 'local', namespace: 'kube-system' })
          .set('Authorization', ALICE),
    ],
  ])(
    'a %s to another namespace is a 403 before any Kubernetes request',
    async (_what, send) => {
      ctx.kube.resetRequests();
      const res = await send(request(ctx.server) as any);
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe(
        "namespace 'kube-system' is not open to model deployments on cluster local; allowed: default, models (modelManager.kubernetes.clusters.local.namespaces)",
      );
      expect(ctx.kube.requests).toEqual([]);
    },
  );

  it('GET /clusters says which namespaces each cluster allows (the deploy form offers those)', async () => {
    const res = await request(ctx.server)
      .get('/api/model-manager/clusters')
      .set('Authorization', ALICE);
    expect(res.body.items).toEqual([
      expect.objectContaining({
        name: 'local',
        namespaces: ['default', 'models'],
      }),
    ]);
  });

  it('an allowed namespace deploys', async () => {
    const res = await request(ctx.server)
      .post('/api/model-manager/models/bge-m3/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models', dryRun: true });
    expect(res.status).toBe(200);
  });
});
