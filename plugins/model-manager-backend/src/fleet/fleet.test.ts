import fs from 'node:fs';
import path from 'node:path';
import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import { catalogCopy } from '../__testUtils__/editableCatalog';
import { useModelManager } from '../__testUtils__/testBackend';

const ALICE = mockCredentials.user.header('user:default/alice');
const LLM_ISVC = {
  apiVersion: 'serving.kserve.io/v1alpha2',
  kind: 'LLMInferenceService',
};

describe('fleet: what runs where', () => {
  const modelsFile = catalogCopy();
  const ctx = useModelManager({
    modelsFile,
    runtimesDir: path.join(path.dirname(modelsFile), 'runtimes'),
    // Nothing listens on port 1: the cluster `far` cannot be reached.
    extraClusters: [{ name: 'far', url: 'http://127.0.0.1:1' }],
    modelManagerConfig: { watch: true },
  });
  const api = () => request(ctx.server);
  const get = async (url: string, query: Record<string, string> = {}) => {
    const res = await api().get(url).query(query).set('Authorization', ALICE);
    expect(res.status).toBe(200);
    return res.body;
  };
  const deploy = (model: string, body: Record<string, unknown>) =>
    api()
      .post(`/api/model-manager/models/${model}/deploy`)
      .set('Authorization', ALICE)
      .send({ cluster: 'local', ...body })
      .expect(200);
  const target = (items: any[], model: string, namespace = 'models') =>
    items.find(i => i.model === model && i.namespace === namespace);
  /** Applies a change to a live object as someone else would (kubectl, another field manager). */
  const kubectlApply = async (
    object: Record<string, any>,
    plural: string,
    manager = 'kubectl',
  ) => {
    const res = await fetch(
      `${ctx.kube.url}/apis/serving.kserve.io/v1alpha2/namespaces/${object.metadata.namespace}/${plural}/${object.metadata.name}?fieldManager=${manager}&force=true`,
      {
        method: 'PATCH',
        headers: {
          'Content-Type': 'application/apply-patch+yaml',
          Authorization: 'Bearer admin-token',
        },
        body: JSON.stringify(object),
      },
    );
    expect(res.status).toBeLessThan(300);
  };
  /** Edits models.yaml and waits until the backend serves the change. */
  const editCatalog = async (
    edit: (text: string) => string,
    served: (body: any) => boolean,
  ) => {
    fs.writeFileSync(modelsFile, edit(fs.readFileSync(modelsFile, 'utf8')));
    for (;;) {
      if (served(await get('/api/model-manager/runtimes/vllm'))) return;
      await new Promise(resolve => setImmediate(resolve));
    }
  };

  it('an unreachable cluster is an error entry naming it; the rest still answers', async () => {
    const body = await get('/api/model-manager/fleet');
    expect(body.items).toEqual([]);
    expect(body.errors).toEqual([
      {
        cluster: 'far',
        message: expect.stringMatching(
          /^cluster far could not be read: cannot reach the Kubernetes API/,
        ),
      },
    ]);
  });

  it('finds deployed targets with their live version, image, state and last revision', async () => {
    await deploy('qwen2-5-7b-instruct', { namespace: 'models' });
    await deploy('llama-3-1-8b-instruct', { namespace: 'models' });
    await deploy('bge-small-en-v1-5-ov', { namespace: 'default' });
    ctx.kube.resetRequests();
    const body = await get('/api/model-manager/fleet');
    expect(
      body.items.map((i: any) => `${i.model}@${i.cluster}/${i.namespace}`),
    ).toEqual([
      'bge-small-en-v1-5-ov@local/default',
      'llama-3-1-8b-instruct@local/models',
      'qwen2-5-7b-instruct@local/models',
    ]);
    expect(target(body.items, 'qwen2-5-7b-instruct')).toMatchObject({
      runtime: 'vllm',
      liveVersion: '0.24.0',
      liveImage: 'docker.io/vllm/vllm-openai-cpu:v0.24.0',
      resolvedVersion: '0.24.0',
      state: 'NotReady',
      reason: expect.stringMatching(/has not reported a Ready condition/),
      awaitingKServe: true,
      drifted: false,
      outdated: false,
      revision: {
        revision: 1,
        action: 'deploy',
        actor: 'user:default/alice',
        overrides: {},
      },
    });
    expect(target(body.items, 'bge-small-en-v1-5-ov', 'default')).toMatchObject(
      {
        runtime: 'openvino',
        liveImage: 'openvino/model_server:2026.3',
        state: 'NotReady',
      },
    );
    expect(
      target(body.items, 'bge-small-en-v1-5-ov', 'default').liveVersion,
    ).toBeUndefined();
    // Its weights download Job, as applied: nothing in its status yet (no controller has run it).
    expect(target(body.items, 'bge-small-en-v1-5-ov', 'default')).toMatchObject(
      {
        awaitingKServe: true,
        download: { name: 'bge-small-en-v1-5-ov-download', phase: 'pending' },
        reason: expect.stringMatching(
          /^Weights download bge-small-en-v1-5-ov-download: Waiting for the download pod to start: the Job controller has not started Job default\/bge-small-en-v1-5-ov-download yet .* KServe has not reported a Ready condition for this InferenceService yet/,
        ),
      },
    );
    // vLLM downloads inside its server pod: no download of its own.
    expect(target(body.items, 'qwen2-5-7b-instruct').download).toBeUndefined();
    // One LIST per cluster and kind, all namespaces, by label: no per-model reads.
    const local = ctx.kube.requests;
    const lists = local.filter(
      r =>
        r.method === 'GET' &&
        r.query.labelSelector === 'app.kubernetes.io/managed-by=model-manager',
    );
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.every(r => !r.path.includes('/namespaces/'))).toBe(true);
    expect(new Set(lists.map(r => r.path)).size).toBe(lists.length);
    expect(
      local.filter(
        r =>
          r.method === 'GET' &&
          /\/(qwen2-5-7b-instruct|llama-3-1-8b-instruct|bge-small-en-v1-5-ov)$/.test(
            r.path,
          ),
      ),
    ).toEqual([]);
  });

  it('Ready when KServe says so, with the endpoint; filters by cluster, namespace, runtime, version and state', async () => {
    await ctx.kube.objects.setStatus(
      { ...LLM_ISVC, name: 'qwen2-5-7b-instruct', namespace: 'models' },
      {
        url: 'http://qwen.models.example',
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            lastTransitionTime: '2026-12-01T00:00:00Z',
          },
        ],
      },
    );
    const ready = await get('/api/model-manager/fleet', { state: 'Ready' });
    expect(ready.items.map((i: any) => i.model)).toEqual([
      'qwen2-5-7b-instruct',
    ]);
    // The endpoint clients call: KServe's URL with vLLM's /v1.
    expect(ready.items[0]).toMatchObject({
      state: 'Ready',
      endpoint: 'http://qwen.models.example/v1',
    });
    expect(ready.items[0].reason).toBeUndefined();
    expect(
      (
        await get('/api/model-manager/fleet', { runtime: 'openvino' })
      ).items.map((i: any) => i.model),
    ).toEqual(['bge-small-en-v1-5-ov']);
    expect(
      (await get('/api/model-manager/fleet', { version: '0.19.1' })).items.map(
        (i: any) => i.model,
      ),
    ).toEqual(['llama-3-1-8b-instruct']);
    expect(
      (await get('/api/model-manager/fleet', { namespace: 'default' })).items,
    ).toHaveLength(1);
    const onFar = await get('/api/model-manager/fleet', { cluster: 'far' });
    expect(onFar.items).toEqual([]);
    expect(onFar.errors).toHaveLength(1);
    expect(
      (await get('/api/model-manager/fleet', { cluster: 'local' })).errors,
    ).toEqual([]);
    const perModel = await get(
      '/api/model-manager/models/llama-3-1-8b-instruct/fleet',
    );
    expect(perModel.items.map((i: any) => i.model)).toEqual([
      'llama-3-1-8b-instruct',
    ]);
    const bad = await api()
      .get('/api/model-manager/fleet')
      .query({ state: 'Sleeping' })
      .set('Authorization', ALICE);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(
      /state must be one of Ready, NotReady, Missing, Unknown/,
    );
  });

  /** One target as the fleet (Deployments page) and the status (Serving tab, CLI) see it. */
  const fleetAndStatus = async (model: string, namespace: string) => ({
    fleet: target(
      (await get('/api/model-manager/fleet')).items,
      model,
      namespace,
    ),
    status: (await get(`/api/model-manager/models/${model}/status`)).items.find(
      (i: any) => i.namespace === namespace,
    ),
  });

  it("Ready on KServe, but Envoy Gateway refused the model's Backend: NotReady in the fleet and the status, with Envoy Gateway's words", async () => {
    const model = 'bge-small-en-v1-5-ov';
    const ISVC = {
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      name: model,
      namespace: 'default',
    };
    const BACKEND = {
      apiVersion: 'gateway.envoyproxy.io/v1alpha1',
      kind: 'Backend',
      name: model,
      namespace: 'default',
    };
    const at = '2026-12-01T11:00:00Z';
    const NOT_ENABLED =
      'The Backend was not accepted since Backend is not enabled in Envoy Gateway Config';
    const refusal = `Clients cannot reach the model: Backend ${model} was refused by its controller (Accepted False, Invalid: ${NOT_ENABLED}).`;
    const now = () => fleetAndStatus(model, 'default');
    await ctx.kube.objects.setStatus(
      ISVC,
      {
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at }],
      },
      { fieldManager: 'kserve' },
    );
    try {
      // Envoy Gateway has not judged the Backend yet: KServe's Ready stands.
      const before = await now();
      expect(before.fleet.state).toBe('Ready');
      expect(before.status.summary).toMatchObject({
        ready: true,
        problems: [],
      });

      await ctx.kube.objects.setStatus(
        BACKEND,
        {
          conditions: [
            {
              type: 'Accepted',
              status: 'False',
              reason: 'Invalid',
              message: NOT_ENABLED,
              lastTransitionTime: at,
              observedGeneration: 1,
            },
          ],
        },
        { fieldManager: 'envoy-gateway' },
      );
      const after = await now();
      expect(after.fleet).toMatchObject({ state: 'NotReady', reason: refusal });
      expect(after.fleet.awaitingKServe).toBeUndefined();
      expect(after.status.summary).toMatchObject({
        ready: false,
        problems: [refusal],
      });
    } finally {
      await ctx.kube.objects.setStatus(ISVC, {}, { fieldManager: 'kserve' });
      await ctx.kube.objects.setStatus(
        BACKEND,
        {},
        { fieldManager: 'envoy-gateway' },
      );
    }
  });

  it("Ready on KServe, but the Gateway refused the HTTPRoute Envoy AI Gateway made from the model's AIGatewayRoute: NotReady in the fleet and the status, naming the Gateway", async () => {
    const model = 'bge-small-en-v1-5-ov';
    const ISVC = {
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      name: model,
      namespace: 'default',
    };
    const ROUTE = {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      name: model,
      namespace: 'default',
    };
    const at = '2026-12-01T11:00:00Z';
    const aiRoute = await ctx.kube.objects.get({
      apiVersion: 'aigateway.envoyproxy.io/v1beta1',
      kind: 'AIGatewayRoute',
      name: model,
      namespace: 'default',
    });
    const now = () => fleetAndStatus(model, 'default');
    await ctx.kube.objects.setStatus(
      ISVC,
      {
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at }],
      },
      { fieldManager: 'kserve' },
    );
    // As Envoy AI Gateway makes it: the AIGatewayRoute's name, namespace and labels.
    await ctx.kube.objects.put({
      apiVersion: ROUTE.apiVersion,
      kind: ROUTE.kind,
      metadata: {
        name: model,
        namespace: 'default',
        labels: (aiRoute as any).metadata.labels,
      },
      spec: {
        parentRefs: [{ name: 'envoy-ai-gateway-basic', namespace: 'default' }],
        rules: [{ backendRefs: [{ name: model, port: 8000 }] }],
      },
    });
    const refusal = `Clients cannot reach the model: HTTPRoute ${model} (made by its controller from AIGatewayRoute ${model}) was refused by Gateway default/envoy-ai-gateway-basic (Accepted False, NoMatchingListenerHostname: no hostname of the listeners matches).`;
    try {
      // Not judged yet: KServe's Ready stands.
      expect((await now()).fleet.state).toBe('Ready');

      await ctx.kube.objects.setStatus(
        ROUTE,
        {
          parents: [
            {
              parentRef: {
                group: 'gateway.networking.k8s.io',
                kind: 'Gateway',
                name: 'envoy-ai-gateway-basic',
                namespace: 'default',
              },
              controllerName: 'gateway.envoyproxy.io/gatewayclass-controller',
              conditions: [
                {
                  type: 'Accepted',
                  status: 'False',
                  reason: 'NoMatchingListenerHostname',
                  message: 'no hostname of the listeners matches',
                  lastTransitionTime: at,
                  observedGeneration: 1,
                },
              ],
            },
          ],
        },
        { fieldManager: 'envoy-gateway' },
      );
      const after = await now();
      expect(after.fleet).toMatchObject({ state: 'NotReady', reason: refusal });
      expect(after.status.summary).toMatchObject({
        ready: false,
        problems: [refusal],
      });
      // Not ours: a made object is never drift, never missing, never part of a revision.
      expect(after.fleet.drifted).toBe(false);
    } finally {
      await ctx.kube.objects.setStatus(ISVC, {}, { fieldManager: 'kserve' });
      await ctx.kube.objects.delete(ROUTE);
    }
    expect((await now()).fleet.state).not.toBe('Missing');
  });

  it('a NotReady OpenVINO model says where its weights download is (running, failed), read from the live Job', async () => {
    const JOB = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      name: 'bge-small-en-v1-5-ov-download',
      namespace: 'default',
    };
    const bge = async () =>
      target(
        (await get('/api/model-manager/fleet')).items,
        'bge-small-en-v1-5-ov',
        'default',
      );
    const startTime = '2026-12-01T10:01:00Z';
    await ctx.kube.objects.setStatus(
      JOB,
      { startTime, active: 1, ready: 1 },
      { fieldManager: 'job-controller' },
    );
    expect(await bge()).toMatchObject({
      state: 'NotReady',
      awaitingKServe: true,
      download: { phase: 'running', message: 'Downloading.', startTime },
      reason: expect.stringMatching(
        /^Weights download bge-small-en-v1-5-ov-download: Downloading\. KServe has not reported/,
      ),
    });

    // The Job gave up (the Job controller's conditions, as kube-apiserver 1.34 validates them:
    // FailureTarget before Failed, a start time, no active pod).
    const failedAt = '2026-12-01T10:09:00Z';
    await ctx.kube.objects.setStatus(
      JOB,
      {
        startTime,
        failed: 7,
        conditions: [
          {
            type: 'FailureTarget',
            status: 'True',
            reason: 'BackoffLimitExceeded',
            message: 'Job has reached the specified backoff limit',
            lastTransitionTime: failedAt,
            lastProbeTime: failedAt,
          },
          {
            type: 'Failed',
            status: 'True',
            reason: 'BackoffLimitExceeded',
            message: 'Job has reached the specified backoff limit',
            lastTransitionTime: failedAt,
            lastProbeTime: failedAt,
          },
        ],
      },
      { fieldManager: 'job-controller' },
    );
    const failed = await bge();
    expect(failed).toMatchObject({
      state: 'NotReady',
      download: { phase: 'failed', reason: 'BackoffLimitExceeded' },
      reason:
        "Weights download bge-small-en-v1-5-ov-download: Download failed (BackoffLimitExceeded: Job has reached the specified backoff limit). Read the logs of the Job's pod, fix the cause, then deploy again.",
    });
    // Failed, not waiting: a failed Job never runs again.
    expect(failed.awaitingKServe).toBeUndefined();
    expect(
      (await get('/api/model-manager/fleet', { state: 'NotReady' })).items.map(
        (i: any) => i.model,
      ),
    ).toContain('bge-small-en-v1-5-ov');
  });

  it('drifted: someone edited a live object with another field manager; the fields are listed', async () => {
    await kubectlApply(
      {
        ...LLM_ISVC,
        metadata: { name: 'qwen2-5-7b-instruct', namespace: 'models' },
        spec: {
          template: {
            containers: [
              {
                name: 'main',
                image: 'docker.io/vllm/vllm-openai-cpu:v0.24.0-hotfix',
              },
            ],
          },
        },
      },
      'llminferenceservices',
    );
    const qwen = target(
      (await get('/api/model-manager/fleet')).items,
      'qwen2-5-7b-instruct',
    );
    expect(qwen).toMatchObject({
      drifted: true,
      outdated: false,
      liveImage: 'docker.io/vllm/vllm-openai-cpu:v0.24.0-hotfix',
    });
    expect(qwen.drift).toEqual([
      {
        kind: 'LLMInferenceService',
        name: 'qwen2-5-7b-instruct',
        namespace: 'models',
        change: 'changed',
        fields: [
          {
            path: '.spec.template.containers[name=main].image',
            rendered: 'docker.io/vllm/vllm-openai-cpu:v0.24.0',
            live: 'docker.io/vllm/vllm-openai-cpu:v0.24.0-hotfix',
          },
        ],
      },
    ]);
    expect(
      target(
        (await get('/api/model-manager/fleet')).items,
        'llama-3-1-8b-instruct',
      ).drifted,
    ).toBe(false);
  });

  it('Missing: an object of the last revision is gone', async () => {
    await deploy('bge-m3', { namespace: 'models' });
    const res = await fetch(
      `${ctx.kube.url}/apis/serving.kserve.io/v1alpha2/namespaces/models/llminferenceservices/bge-m3`,
      { method: 'DELETE', headers: { Authorization: 'Bearer admin-token' } },
    );
    expect(res.status).toBe(200);
    const bge = target((await get('/api/model-manager/fleet')).items, 'bge-m3');
    expect(bge).toMatchObject({
      state: 'Missing',
      reason:
        'gone from the cluster: LLMInferenceService models/bge-m3; deploy again to recreate it',
      revision: { revision: 1 },
    });
  });

  it('objects applied without the portal (CLI, GitOps) are found too, without a revision', async () => {
    const rendered = await api()
      .post('/api/model-manager/models/bge-reranker-v2-m3/render')
      .set('Authorization', ALICE)
      .send({ namespace: 'default' });
    await kubectlApply(
      rendered.body.items[0].manifest,
      'llminferenceservices',
      'argocd-controller',
    );
    const reranker = target(
      (await get('/api/model-manager/fleet')).items,
      'bge-reranker-v2-m3',
      'default',
    );
    expect(reranker).toMatchObject({
      runtime: 'vllm',
      liveVersion: '0.24.0',
      state: 'NotReady',
      drifted: false,
      outdated: false,
    });
    expect(reranker.revision).toBeUndefined();
  });

  it('outdated: default_version moved in models.yaml; the fields that would change are listed; the pinned model is not outdated', async () => {
    await editCatalog(
      text =>
        text.replace('default_version: "0.24.0"', 'default_version: "0.19.1"'),
      vllm => vllm.defaultVersion === '0.19.1',
    );
    const items = (await get('/api/model-manager/fleet')).items;
    const qwen = target(items, 'qwen2-5-7b-instruct');
    expect(qwen).toMatchObject({
      outdated: true,
      liveVersion: '0.24.0',
      resolvedVersion: '0.19.1',
      resolvedImage: 'docker.io/vllm/vllm-openai-cpu:v0.19.1',
    });
    const paths = qwen.outdatedChanges[0].fields.map((f: any) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '.metadata.labels.model-manager.io/server-version',
        '.spec.template.containers[name=main].image',
        '.spec.template.containers[name=main].env[name=VLLM_USE_V1]',
        '.spec.template.containers[name=main].args',
      ]),
    );
    expect(
      qwen.outdatedChanges[0].fields.find(
        (f: any) => f.path === '.spec.template.containers[name=main].image',
      ),
    ).toEqual({
      path: '.spec.template.containers[name=main].image',
      rendered: 'docker.io/vllm/vllm-openai-cpu:v0.19.1',
      live: 'docker.io/vllm/vllm-openai-cpu:v0.24.0',
    });
    expect(target(items, 'llama-3-1-8b-instruct').outdated).toBe(false);
    // The outdated filter is a client-side question; the version filter reads the live version.
    expect(
      (await get('/api/model-manager/fleet', { version: '0.24.0' })).items
        .map((i: any) => i.model)
        .sort(),
    ).toEqual(['bge-reranker-v2-m3', 'qwen2-5-7b-instruct']);
  });

  describe('rollout plans', () => {
    const plan = (query: Record<string, string>) =>
      get('/api/model-manager/rollouts/plan', query);
    const names = (list: any[]) =>
      list.map(t => `${t.model}@${t.namespace}`).sort();

    it('after default_version moved: every target whose live objects differ moves, with its field changes; the rest say why not', async () => {
      const body = await plan({ runtime: 'vllm' });
      expect(body.version).toBeUndefined();
      expect(names(body.moves)).toEqual([
        'bge-m3@models',
        'bge-reranker-v2-m3@default',
        'qwen2-5-7b-instruct@models',
      ]);
      const qwen = body.moves.find(
        (m: any) => m.model === 'qwen2-5-7b-instruct',
      );
      expect(qwen).toMatchObject({
        cluster: 'local',
        fromVersion: '0.24.0',
        toVersion: '0.19.1',
        overrides: {},
      });
      expect(qwen.changes[0].fields).toEqual(
        expect.arrayContaining([
          {
            path: '.spec.template.containers[name=main].image',
            rendered: 'docker.io/vllm/vllm-openai-cpu:v0.19.1',
            live: 'docker.io/vllm/vllm-openai-cpu:v0.24.0-hotfix',
          },
        ]),
      );
      // The Missing target: its object would be created again.
      expect(body.moves.find((m: any) => m.model === 'bge-m3').changes).toEqual(
        [
          {
            kind: 'LLMInferenceService',
            name: 'bge-m3',
            namespace: 'models',
            change: 'added',
            fields: [],
          },
        ],
      );
      expect(body.stays).toEqual([
        {
          model: 'llama-3-1-8b-instruct',
          cluster: 'local',
          namespace: 'models',
          liveVersion: '0.19.1',
          why: 'up-to-date',
          reason: 'already runs what would be applied (version 0.19.1)',
        },
      ]);
      // The unreachable cluster is reported, not fatal.
      expect(body.errors).toEqual([]);
    });

    it('toward a version: a model pin, a request pin and a flat runtime hold their targets, each said why', async () => {
      await deploy('qwen2-5-vl-7b-instruct', {
        namespace: 'models',
        serverVersion: '0.24.0',
      });
      const body = await plan({
        runtime: 'vllm',
        version: '0.24.0',
        namespace: 'models',
      });
      expect(body.version).toBe('0.24.0');
      expect(names(body.moves)).toEqual([
        'bge-m3@models',
        'qwen2-5-7b-instruct@models',
      ]);
      const why = Object.fromEntries(
        body.stays.map((s: any) => [s.model, [s.why, s.reason]]),
      );
      expect(why['llama-3-1-8b-instruct']).toEqual([
        'pinned-by-model',
        expect.stringMatching(
          /^pinned by models\.yaml: models\.llama-3-1-8b-instruct\.server\.server_version is 0\.19\.1/,
        ),
      ]);
      expect(why['qwen2-5-vl-7b-instruct']).toEqual([
        'up-to-date',
        expect.any(String),
      ]);
      const toOld = await plan({
        runtime: 'vllm',
        version: '0.19.1',
        namespace: 'models',
      });
      const vl = toOld.stays.find(
        (s: any) => s.model === 'qwen2-5-vl-7b-instruct',
      );
      expect(vl).toMatchObject({
        why: 'held',
        reason: expect.stringMatching(
          /^held at 0\.24\.0 by request of \d{4}-\d\d-\d\d by user:default\/alice \(revision 1\); models\.yaml default 0\.19\.1; plan with includeHeld to move it to 0\.19\.1$/,
        ),
        hold: { version: '0.24.0', by: 'request', revision: 1 },
      });
      // Asked to include held targets, the plan moves it, releasing the hold.
      const withHeld = await plan({
        runtime: 'vllm',
        version: '0.19.1',
        namespace: 'models',
        includeHeld: 'true',
      });
      expect(
        withHeld.moves.find((m: any) => m.model === 'qwen2-5-vl-7b-instruct'),
      ).toMatchObject({
        toVersion: '0.19.1',
        overrides: { serverVersion: '0.19.1' },
        releasesHold: { version: '0.24.0', by: 'request' },
      });
      const flat = await plan({ runtime: 'openvino', version: '2026.3' });
      expect(flat.moves).toEqual([]);
      expect(flat.stays).toEqual([
        expect.objectContaining({
          model: 'bge-small-en-v1-5-ov',
          why: 'flat-runtime',
        }),
      ]);
    });

    it('a deploy made by a rollout is recorded as one, and its version is held like a request pin', async () => {
      // The hotfix image belongs to kubectl: moving it back takes the field over (force).
      const conflict = await api()
        .post('/api/model-manager/models/qwen2-5-7b-instruct/deploy')
        .set('Authorization', ALICE)
        .send({
          cluster: 'local',
          namespace: 'models',
          serverVersion: '0.24.0',
          rollout: { runtime: 'vllm', version: '0.24.0' },
        });
      expect(conflict.status).toBe(409);
      const moved = await deploy('qwen2-5-7b-instruct', {
        namespace: 'models',
        serverVersion: '0.24.0',
        force: true,
        rollout: { runtime: 'vllm', version: '0.24.0' },
      });
      // The failed attempt is kept without a revision; the rollout that applied is 2.
      expect(moved.body).toMatchObject({
        action: 'rollout',
        revision: 2,
        serverVersion: '0.24.0',
      });
      const history = await get(
        '/api/model-manager/models/qwen2-5-7b-instruct/deployments',
      );
      expect(history.items[0]).toMatchObject({
        revision: 2,
        action: 'rollout',
        changesFromPrevious: { previousRevision: 1 },
      });
      expect(history.items[1]).toMatchObject({
        action: 'rollout',
        outcome: 'failed',
      });
      expect(history.items[1].revision).toBeUndefined();
      expect(history.items[1].changesFromPrevious).toBeUndefined();
      // The rollout took over the image the hotfix had set: no drift left.
      const qwen = target(
        (await get('/api/model-manager/fleet')).items,
        'qwen2-5-7b-instruct',
      );
      expect(qwen).toMatchObject({
        drifted: false,
        liveVersion: '0.24.0',
        revision: { revision: 2, action: 'rollout' },
      });
      // Held, not outdated: with default_version at 0.19.1 it stays at 0.24.0 until asked.
      expect(qwen.outdated).toBe(false);
      expect(qwen.sync.hold).toMatchObject({
        version: '0.24.0',
        by: 'rollout',
        // The refused attempt took no revision: the rollout that applied is 2.
        revision: 2,
        catalogVersion: '0.19.1',
      });
      const body = await plan({
        runtime: 'vllm',
        version: '0.19.1',
        namespace: 'models',
      });
      expect(names(body.moves)).not.toContain('qwen2-5-7b-instruct@models');
      expect(body.stays).toContainEqual(
        expect.objectContaining({ model: 'qwen2-5-7b-instruct', why: 'held' }),
      );
      const asked = await plan({
        runtime: 'vllm',
        version: '0.19.1',
        namespace: 'models',
        includeHeld: 'true',
      });
      expect(names(asked.moves)).toContain('qwen2-5-7b-instruct@models');
    });

    it('refuses a rollout deploy that does not match the model, and unknown runtimes or versions', async () => {
      const wrong = await api()
        .post('/api/model-manager/models/qwen2-5-7b-instruct/deploy')
        .set('Authorization', ALICE)
        .send({
          cluster: 'local',
          namespace: 'models',
          rollout: { runtime: 'openvino' },
        });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.message).toMatch(
        /rollout\.runtime is openvino, but model qwen2-5-7b-instruct runs on runtime vllm/,
      );
      expect(
        (
          await api()
            .get('/api/model-manager/rollouts/plan')
            .query({ runtime: 'tgi' })
            .set('Authorization', ALICE)
        ).status,
      ).toBe(404);
      const badVersion = await api()
        .get('/api/model-manager/rollouts/plan')
        .query({ runtime: 'vllm', version: '9.9.9' })
        .set('Authorization', ALICE);
      expect(badVersion.status).toBe(404);
      expect(badVersion.body.error.message).toMatch(
        /unknown version '9\.9\.9' for runtime vllm; versions: 0\.24\.0, 0\.19\.1/,
      );
      const noRuntime = await api()
        .get('/api/model-manager/rollouts/plan')
        .set('Authorization', ALICE);
      expect(noRuntime.status).toBe(400);
      expect(noRuntime.body.error.message).toMatch(/runtime is required/);
    });
  });
});
