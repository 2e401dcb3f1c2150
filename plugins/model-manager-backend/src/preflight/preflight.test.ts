/**
 * Preflight through the real router against the Kubernetes API test server: the REST route (with
 * a deploy's overrides), a refused deploy applying nothing, `skipPreflight` audited and in
 * history, a service account that may not list nodes, and Secrets read as metadata only.
 */
import { mockCredentials } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import { mockServices } from '@backstage/backend-test-utils';
import {
  ADMIN_TOKEN,
  KubeApiTestServer,
} from '@model-manager/kube-api-test-server';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { catalogCopy } from '../__testUtils__/editableCatalog';
import {
  useModelManager,
  type ModelManagerTestContext,
} from '../__testUtils__/testBackend';
import { ClusterRegistry } from '../kubernetes';
import {
  seedSchedulableCluster,
  testClustersConfig,
} from '@model-manager/test-harness';
import { PreflightReader } from './PreflightReader';
import { secretPath } from './paths';

const ALICE = mockCredentials.user.header('user:default/alice');
const OVMS = 'bge-small-en-v1-5-ov';
const statuses = (checks: Array<{ id: string; status: string }>) =>
  Object.fromEntries(checks.map(c => [c.id, c.status]));
/**
 * An object read back, to be created again: without what the server set (uid, resourceVersion,
 * creation time, managed fields), which a create of a new object may not carry.
 */
const fresh = (o: Record<string, any>) => {
  const {
    uid: _uid,
    resourceVersion: _rv,
    creationTimestamp: _created,
    managedFields: _managed,
    generation: _generation,
    ...metadata
  } = o.metadata;
  return { ...o, metadata };
};
/** The checks of `model`'s preflight to cluster local, `namespace`, asked as Alice (200). */
const checksOf = async (
  server: Parameters<typeof request>[0],
  model: string,
  namespace = 'models',
): Promise<any[]> =>
  (
    await request(server)
      .get(`/api/model-manager/models/${model}/preflight`)
      .query({ cluster: 'local', namespace })
      .set('Authorization', ALICE)
      .expect(200)
  ).body.checks;

/** A deploy of `model` to local/models, refused (409) with only reads made: its error. */
const refusedDeploy = async (ctx: ModelManagerTestContext, model: string) => {
  ctx.kube.resetRequests();
  const res = await request(ctx.server)
    .post(`/api/model-manager/models/${model}/deploy`)
    .set('Authorization', ALICE)
    .send({ cluster: 'local', namespace: 'models' })
    .expect(409);
  expect(ctx.kube.requests.every(r => r.method === 'GET')).toBe(true);
  return res.body.error;
};

describe('preflight on a cluster that can run the model', () => {
  const ctx = useModelManager();
  const api = () => request(ctx.server);
  beforeEach(() => {
    ctx.kube.resetRequests();
    ctx.events.length = 0;
  });

  it('GET /models/:name/preflight: every check passes, in order', async () => {
    const res = await api()
      .get(`/api/model-manager/models/${OVMS}/preflight`)
      .query({ cluster: 'local', namespace: 'models' })
      .set('Authorization', ALICE)
      .expect(200);
    expect(res.body).toMatchObject({
      model: OVMS,
      cluster: 'local',
      namespace: 'models',
    });
    expect(statuses(res.body.checks)).toEqual({
      engine: 'pass',
      'api-versions': 'pass',
      namespace: 'pass',
      'deployment-mode': 'pass',
      secrets: 'pass',
      quota: 'pass',
      'limit-range': 'pass',
      nodes: 'pass',
      storage: 'pass',
      gateway: 'pass',
      'gateway-config': 'pass',
    });
    expect(
      res.body.checks.find((c: any) => c.id === 'deployment-mode').message,
    ).toBe(
      `InferenceService models/${OVMS} is new on cluster local: KServe creates it in Standard mode`,
    );
    expect(res.body.checks.find((c: any) => c.id === 'storage').message).toBe(
      'claim model-manager-weights will be created with the default StorageClass standard',
    );
    // Reads only: nothing was written.
    expect(ctx.kube.requests.every(r => r.method === 'GET')).toBe(true);
  });

  it("takes a deploy's overrides from the query: an arg the engine refuses fails the engine check", async () => {
    const res = await api()
      .get('/api/model-manager/models/qwen2-5-7b-instruct/preflight')
      .query({
        cluster: 'local',
        namespace: 'models',
        arg: '--enable-expert-parallel',
      })
      .set('Authorization', ALICE)
      .expect(200);
    expect(res.body.checks).toHaveLength(1);
    expect(res.body.checks[0]).toMatchObject({
      id: 'engine',
      status: 'fail',
      message: expect.stringMatching(/--enable-expert-parallel/),
    });
  });

  it('an unknown server version is 404, an unknown cluster 404 or 400, before any read', async () => {
    const version = await api()
      .get(`/api/model-manager/models/qwen2-5-7b-instruct/preflight`)
      .query({ cluster: 'local', namespace: 'models', serverVersion: '9.9.9' })
      .set('Authorization', ALICE);
    expect(version.status).toBe(404);
    const cluster = await api()
      .get(`/api/model-manager/models/${OVMS}/preflight`)
      .query({ cluster: 'nowhere', namespace: 'models' })
      .set('Authorization', ALICE);
    expect(cluster.body.error.message).toMatch(/nowhere/);
    expect(ctx.kube.requestCount).toBe(0);
  });

  it("the rollout plan carries each move's checks, reading nodes and the namespace once", async () => {
    for (const model of ['qwen2-5-7b-instruct', 'bge-m3'])
      await api()
        .post(`/api/model-manager/models/${model}/deploy`)
        .set('Authorization', ALICE)
        .send({ cluster: 'local', namespace: 'models' })
        .expect(200);
    ctx.kube.resetRequests();
    const plan = await api()
      .get('/api/model-manager/rollouts/plan')
      .query({ runtime: 'vllm', version: '0.19.1', namespace: 'models' })
      .set('Authorization', ALICE)
      .expect(200);
    const moved = plan.body.moves.map((m: any) => m.model).sort();
    expect(moved).toEqual(['bge-m3', 'qwen2-5-7b-instruct']);
    for (const move of plan.body.moves)
      expect(statuses(move.preflight)).toMatchObject({
        engine: 'pass',
        namespace: 'pass',
        nodes: 'pass',
      });
    const gets = (url: string) =>
      ctx.kube.requests.filter(r => r.method === 'GET' && r.path === url)
        .length;
    expect(gets('/api/v1/nodes')).toBe(1);
    expect(gets('/api/v1/namespaces/models/resourcequotas')).toBe(1);
    expect(gets('/api/v1/namespaces/models')).toBe(1);
  });

  it("a Gateway that admits routes from its own namespace only (Envoy AI Gateway's basic example): the routes from another namespace fail the check", async () => {
    const GATEWAY = {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'Gateway',
      namespace: 'default',
      name: 'envoy-ai-gateway-basic',
    };
    const seeded = (await ctx.kube.objects.get(GATEWAY))!;
    const gatewayAt = async (namespace: string) =>
      (await checksOf(ctx.server, OVMS, namespace)).find(
        (c: any) => c.id === 'gateway',
      );
    // As test-assets/examples/envoy-ai-gateway/basic.yaml ships it (no allowedRoutes), stored as
    // kube-apiserver stores it: Gateway API's CRD defaults allowedRoutes to namespaces from Same.
    await ctx.kube.objects.put({
      apiVersion: GATEWAY.apiVersion,
      kind: GATEWAY.kind,
      metadata: { name: GATEWAY.name, namespace: GATEWAY.namespace },
      spec: {
        gatewayClassName: 'envoy-ai-gateway-basic',
        listeners: [
          {
            name: 'http',
            protocol: 'HTTP',
            port: 80,
            allowedRoutes: { namespaces: { from: 'Same' } },
          },
        ],
      },
    });
    try {
      expect(await gatewayAt('models')).toMatchObject({
        status: 'fail',
        message: `AIGatewayRoute ${OVMS} in namespace models attaches to Gateway default/envoy-ai-gateway-basic, whose listeners do not admit routes from that namespace (listener http admits routes from its own namespace default only (allowedRoutes.namespaces.from: Same)): the Gateway would not accept the route (NotAllowedByListeners), and clients could not reach the model`,
      });
      expect((await gatewayAt('default')).status).toBe('pass');
    } finally {
      await ctx.kube.objects.put(fresh(seeded));
    }
    expect((await gatewayAt('models')).status).toBe('pass');
  });

  it('an InferenceService KServe made in Knative mode: the check fails and the deploy is refused (KServe would refuse the change); once undeployed, it passes', async () => {
    const live = {
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      metadata: { name: OVMS, namespace: 'models' },
      spec: { predictor: { model: { modelFormat: { name: 'openvino' } } } },
    };
    await ctx.kube.objects.put(live);
    try {
      // What KServe's controller writes on a Knative-mode install (its default).
      await ctx.kube.objects.setStatus(
        {
          apiVersion: live.apiVersion,
          kind: live.kind,
          namespace: 'models',
          name: OVMS,
        },
        { deploymentMode: 'Knative' },
      );
      const checks = await checksOf(ctx.server, OVMS);
      const mode = checks.find((c: any) => c.id === 'deployment-mode');
      expect(mode).toMatchObject({
        status: 'fail',
        message: expect.stringMatching(
          new RegExp(
            `^InferenceService models/${OVMS} runs in Knative mode on cluster local \\(its status\\.deploymentMode\\), and the model renders Standard`,
          ),
        ),
      });
      expect((await refusedDeploy(ctx, OVMS)).message).toMatch(
        /nothing was applied: KServe keeps the InferenceService's deployment mode: /,
      );
    } finally {
      await ctx.kube.objects.delete({
        apiVersion: 'serving.kserve.io/v1beta1',
        kind: 'InferenceService',
        namespace: 'models',
        name: OVMS,
      });
    }
    const after = await checksOf(ctx.server, OVMS);
    expect(statuses(after)['deployment-mode']).toBe('pass');
  });

  it("a vLLM model on routing epp: the Gateway KServe's own config names for its managed route must exist", async () => {
    const checkOf = async (id: string) =>
      (
        await api()
          .get('/api/model-manager/models/qwen2-5-7b-instruct/preflight')
          .query({ cluster: 'local', namespace: 'models' })
          .set('Authorization', ALICE)
          .expect(200)
      ).body.checks.find((c: any) => c.id === id);
    const check = () => checkOf('gateway');
    // KServe's default Gateway is there (seeded, as KServe's install creates it); no config.
    expect(await check()).toEqual({
      id: 'gateway',
      title: 'The Gateway the routes attach to exists',
      status: 'pass',
      message: 'Gateway kserve/kserve-ingress-gateway exists',
    });
    expect(
      ctx.kube.requests.some(
        r =>
          r.method === 'GET' &&
          r.path ===
            '/api/v1/namespaces/kserve/configmaps/inferenceservice-config',
      ),
    ).toBe(true);
    // The kinds KServe creates for the managed router are served (profile controller_kinds).
    const apiVersions = await checkOf('api-versions');
    expect(apiVersions.status).toBe('pass');
    expect(apiVersions.message).toMatch(
      /InferencePool \(inference\.networking\.k8s\.io\/v1\); HTTPRoute \(gateway\.networking\.k8s\.io\/v1\)/,
    );
    // This cluster's KServe config names another Gateway, which it does not have.
    const config = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'inferenceservice-config', namespace: 'kserve' },
      data: {
        ingress: JSON.stringify({
          enableGatewayApi: true,
          kserveIngressGateway: 'gateways/edge',
        }),
      },
    };
    await ctx.kube.objects.put(config);
    try {
      expect(await check()).toMatchObject({
        status: 'fail',
        message:
          "LLMInferenceService qwen2-5-7b-instruct's managed route attaches to Gateway gateways/edge (ingress.kserveIngressGateway of ConfigMap kserve/inferenceservice-config), which cluster local does not have (gateway.networking.k8s.io/v1): the route would never be accepted, and the model would never be Ready",
        fix: expect.stringMatching(/^create the Gateway gateways\/edge, /),
      });
      // An OpenVINO model's routes are rendered (the AI gateway): KServe's config is not read,
      // only Envoy Gateway's (its Backend API, profile gateway_config).
      ctx.kube.resetRequests();
      await api()
        .get(`/api/model-manager/models/${OVMS}/preflight`)
        .query({ cluster: 'local', namespace: 'models' })
        .set('Authorization', ALICE)
        .expect(200);
      expect(
        ctx.kube.requests
          .filter(r => r.path.includes('/configmaps/'))
          .map(r => r.path),
      ).toEqual([
        '/api/v1/namespaces/envoy-gateway-system/configmaps/envoy-gateway-config',
      ]);
    } finally {
      await ctx.kube.objects.delete({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        namespace: 'kserve',
        name: 'inferenceservice-config',
      });
    }
  });

  describe('a deploy a check fails', () => {
    const quota = {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'team-quota', namespace: 'default' },
      spec: { hard: { 'requests.cpu': '8' } },
    };
    beforeAll(async () => {
      await ctx.kube.objects.put(quota);
      // What kube's quota controller reports: 6 of 8 CPUs already requested.
      await ctx.kube.objects.setStatus(
        {
          apiVersion: 'v1',
          kind: 'ResourceQuota',
          namespace: 'default',
          name: 'team-quota',
        },
        { hard: { 'requests.cpu': '8' }, used: { 'requests.cpu': '6' } },
      );
    });

    it('is refused with 409 and every check, and nothing is applied', async () => {
      const res = await api()
        .post(`/api/model-manager/models/${OVMS}/deploy`)
        .set('Authorization', ALICE)
        .send({ cluster: 'local', namespace: 'default' });
      expect(res.status).toBe(409);
      expect(res.body.error.name).toBe('PreflightFailedError');
      expect(res.body.error.message).toMatch(
        /^preflight refused the deploy to bge-small-en-v1-5-ov@local\/default, nothing was applied: The namespace's ResourceQuota has room for the pod: .*team-quota: requests.cpu used 6 of 8, the pod needs 6 more.*skipPreflight/,
      );
      expect(statuses(res.body.checks)).toMatchObject({
        quota: 'fail',
        nodes: 'pass',
      });
      // The cluster after: no write reached it, no object of the model is there.
      expect(ctx.kube.requests.filter(r => r.method !== 'GET')).toEqual([]);
      for (const [apiVersion, kind, name] of [
        ['serving.kserve.io/v1beta1', 'InferenceService', OVMS],
        ['batch/v1', 'Job', `${OVMS}-download`],
        ['v1', 'PersistentVolumeClaim', 'model-manager-weights'],
      ])
        expect(
          await ctx.kube.objects.get({
            apiVersion,
            kind,
            name,
            namespace: 'default',
          }),
        ).toBeUndefined();
      expect(ctx.events).toEqual([
        expect.objectContaining({
          eventId: 'model-deploy',
          outcome: 'fail',
          error: expect.stringMatching(/^preflight refused/),
        }),
      ]);
      const history = await api()
        .get(`/api/model-manager/models/${OVMS}/deployments`)
        .set('Authorization', ALICE);
      expect(
        history.body.items.filter((r: any) => r.namespace === 'default'),
      ).toEqual([]);
    });

    it('skipPreflight applies anyway: audited, and the history row names what was skipped', async () => {
      const res = await api()
        .post(`/api/model-manager/models/${OVMS}/deploy`)
        .set('Authorization', ALICE)
        .send({ cluster: 'local', namespace: 'default', skipPreflight: true });
      expect(res.status).toBe(200);
      expect(
        await ctx.kube.objects.get({
          apiVersion: 'serving.kserve.io/v1beta1',
          kind: 'InferenceService',
          name: OVMS,
          namespace: 'default',
        }),
      ).toBeDefined();
      expect(ctx.events).toEqual([
        expect.objectContaining({
          eventId: 'model-deploy',
          meta: expect.objectContaining({ skipPreflight: true }),
          outcome: 'success',
        }),
      ]);
      const history = await api()
        .get(`/api/model-manager/models/${OVMS}/deployments`)
        .set('Authorization', ALICE);
      const [row] = history.body.items.filter(
        (r: any) => r.namespace === 'default',
      );
      expect(row.revision).toBe(res.body.revision);
      expect(row.skippedPreflight).toEqual([
        expect.stringMatching(
          /^quota: ResourceQuota in default would refuse the pod/,
        ),
      ]);
    });
  });
});

describe('preflight of a vLLM model on routing aigateway', () => {
  // The test catalog with runtimes.vllm set to routing: aigateway in models.yaml.
  const modelsFile = catalogCopy();
  fs.writeFileSync(
    modelsFile,
    fs
      .readFileSync(modelsFile, 'utf8')
      .replace(/\n {2}vllm:\n/, '\n  vllm:\n    routing: aigateway\n'),
  );
  const ctx = useModelManager({
    modelsFile,
    runtimesDir: path.join(path.dirname(modelsFile), 'runtimes'),
  });
  const VLLM = 'qwen2-5-7b-instruct';
  const configMap = (ingress: Record<string, unknown>) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'inferenceservice-config', namespace: 'kserve' },
    data: { ingress: JSON.stringify(ingress) },
  });
  afterEach(() =>
    ctx.kube.objects.delete({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: 'kserve',
      name: 'inferenceservice-config',
    }),
  );

  it("KServe serving the workload over HTTPS fails the check and refuses the deploy: the AI gateway's Backend sends HTTP", async () => {
    const preflight = () => checksOf(ctx.server, VLLM);
    // KServe's config as its install ships it (no enableLLMInferenceServiceTLS): HTTP, pass; and
    // the managed route's Gateway is not checked (aigateway renders the routes).
    await ctx.kube.objects.put(configMap({ enableGatewayApi: true }));
    ctx.kube.resetRequests();
    const before = await preflight();
    // No managed router under aigateway: its kinds are not asked for.
    expect(
      ctx.kube.requests.filter(r => r.path.includes('inference.networking')),
    ).toEqual([]);
    expect(statuses(before)).toMatchObject({
      gateway: 'pass',
      protocol: 'pass',
    });
    expect(before.find((c: any) => c.id === 'gateway').message).not.toMatch(
      /kserve-ingress-gateway/,
    );

    await ctx.kube.objects.put(
      configMap({ enableGatewayApi: true, enableLLMInferenceServiceTLS: true }),
    );
    const after = await preflight();
    expect(after.find((c: any) => c.id === 'protocol')).toEqual({
      id: 'protocol',
      title: "The routes speak the protocol of the model's workload",
      status: 'fail',
      message: `cluster local serves ${VLLM}'s workload over HTTPS (ingress.enableLLMInferenceServiceTLS of ConfigMap kserve/inferenceservice-config is true), and routing aigateway's routes send it plain HTTP: every request through them would fail`,
      fix: expect.stringContaining(
        'set enableLLMInferenceServiceTLS to false in ConfigMap kserve/inferenceservice-config',
      ),
    });
    const refused = await refusedDeploy(ctx, VLLM);
    expect(refused.name).toBe('PreflightFailedError');
    expect(refused.message).toMatch(
      /nothing was applied: The routes speak the protocol of the model's workload: .*enableLLMInferenceServiceTLS/,
    );
  });

  it("Envoy Gateway's Backend API off, or no extension manager, fails the check and refuses the deploy; both on, it passes", async () => {
    const EG_CONFIG = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: 'envoy-gateway-system',
      name: 'envoy-gateway-config',
    };
    const egConfig = (yaml: string) => ({
      apiVersion: EG_CONFIG.apiVersion,
      kind: EG_CONFIG.kind,
      metadata: { name: EG_CONFIG.name, namespace: EG_CONFIG.namespace },
      data: { 'envoy-gateway.yaml': yaml },
    });
    const check = async () =>
      (await checksOf(ctx.server, VLLM)).find(
        (c: any) => c.id === 'gateway-config',
      );
    const installed = await ctx.kube.objects.get(EG_CONFIG);
    try {
      // As Envoy AI Gateway's install leaves it (the seeded cluster's): on, pass.
      expect((await check()).status).toBe('pass');
      // No such ConfigMap on the cluster: not known, a warn (Envoy Gateway may run elsewhere).
      await ctx.kube.objects.delete(EG_CONFIG);
      expect((await check()).status).toBe('warn');

      // Envoy AI Gateway's extension server, as its envoy-gateway-values.yaml names it.
      const EXTENSION_MANAGER =
        'extensionManager:\n  hooks:\n    xdsTranslator:\n      post: [Translation, Cluster, Route]\n  service:\n    fqdn:\n      hostname: ai-gateway-controller.envoy-ai-gateway-system.svc.cluster.local\n      port: 1063\n';
      await ctx.kube.objects.put(
        egConfig(
          `apiVersion: gateway.envoyproxy.io/v1alpha1\nkind: EnvoyGateway\nextensionApis:\n  enableEnvoyPatchPolicy: true\n${EXTENSION_MANAGER}`,
        ),
      );
      expect(await check()).toEqual({
        id: 'gateway-config',
        title: "The gateway's controller accepts the objects the routes use",
        status: 'fail',
        message:
          "Envoy Gateway on cluster local would not accept the model's Backend (gateway.envoyproxy.io/v1alpha1), which its AIServiceBackend points at, which routing aigateway renders: extensionApis.enableBackend in envoy-gateway.yaml of ConfigMap envoy-gateway-system/envoy-gateway-config is not set (Envoy Gateway's default: false), not true; clients could not reach the model through the gateway",
        fix: expect.stringContaining(
          "set extensionApis.enableBackend: true in envoy-gateway.yaml of ConfigMap envoy-gateway-system/envoy-gateway-config (Helm: config.envoyGateway.extensionApis.enableBackend=true, as Envoy AI Gateway's install sets it)",
        ),
      });
      expect((await refusedDeploy(ctx, VLLM)).message).toMatch(
        /nothing was applied: The gateway's controller accepts the objects the routes use: .*extensionApis\.enableBackend/,
      );

      // The Backend API on, no extension manager: Envoy AI Gateway's filters are never added.
      await ctx.kube.objects.put(
        egConfig(
          'extensionApis:\n  enableEnvoyPatchPolicy: true\n  enableBackend: true\n',
        ),
      );
      expect(await check()).toMatchObject({
        status: 'fail',
        message:
          "Envoy Gateway on cluster local is not set up for Envoy AI Gateway's filters (they read the request's model into x-ai-eg-model, which the model's AIGatewayRoute matches on, and rewrite /v1 to the engine's prefix), which routing aigateway needs: extensionManager in envoy-gateway.yaml of ConfigMap envoy-gateway-system/envoy-gateway-config is not set; clients could not reach the model through the gateway",
        fix: expect.stringMatching(
          /^set extensionManager in envoy-gateway\.yaml of ConfigMap envoy-gateway-system\/envoy-gateway-config \(Helm: config\.envoyGateway\.extensionManager with hooks\.xdsTranslator and service\.fqdn /,
        ),
      });
      expect((await refusedDeploy(ctx, VLLM)).message).toMatch(
        /nothing was applied: The gateway's controller accepts the objects the routes use: .*extensionManager/,
      );

      await ctx.kube.objects.put(
        egConfig(
          `extensionApis:\n  enableEnvoyPatchPolicy: true\n  enableBackend: true\n${EXTENSION_MANAGER}`,
        ),
      );
      expect((await check()).status).toBe('pass');
    } finally {
      await ctx.kube.objects.delete(EG_CONFIG);
      if (installed) await ctx.kube.objects.put(fresh(installed));
    }
  });
});

describe("preflight: the class of the routes' Gateway", () => {
  const ctx = useModelManager();
  const CLASS = {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'GatewayClass',
    name: 'envoy-ai-gateway-basic',
  };

  it("another controller's class fails the gateway check and refuses the deploy; Envoy Gateway's passes", async () => {
    const gateway = async () =>
      (await checksOf(ctx.server, OVMS)).find((c: any) => c.id === 'gateway');
    // As seeded: Envoy Gateway's.
    expect(await gateway()).toMatchObject({
      status: 'pass',
      message:
        'Gateway default/envoy-ai-gateway-basic (of a class Envoy Gateway serves) exists',
    });
    const installed = (await ctx.kube.objects.get(CLASS))!;
    // Its controllerName is immutable (Gateway API's CRD: "Value is immutable"): another
    // controller's class is deleted and created again.
    await ctx.kube.objects.delete(CLASS);
    try {
      await ctx.kube.objects.put({
        ...fresh(installed),
        spec: { controllerName: 'istio.io/gateway-controller' },
      });
      expect(await gateway()).toMatchObject({
        status: 'fail',
        message: expect.stringMatching(
          /^Gateway default\/envoy-ai-gateway-basic is of GatewayClass envoy-ai-gateway-basic, served by controller istio\.io\/gateway-controller, not by Envoy Gateway \(gateway\.envoyproxy\.io\/gatewayclass-controller, as gateway\.controllerName in envoy-gateway\.yaml of ConfigMap envoy-gateway-system\/envoy-gateway-config names it\)/,
        ),
      });
      const refused = await request(ctx.server)
        .post(`/api/model-manager/models/${OVMS}/deploy`)
        .set('Authorization', ALICE)
        .send({ cluster: 'local', namespace: 'models' })
        .expect(409);
      expect(refused.body.error.message).toMatch(
        /nothing was applied: The Gateway the routes attach to exists: .*istio\.io\/gateway-controller/,
      );
    } finally {
      await ctx.kube.objects.delete(CLASS);
      await ctx.kube.objects.put(fresh(installed));
    }
    expect((await gateway()).status).toBe('pass');
  });
});

describe('preflight with a service account that may not read the cluster scope', () => {
  let kube: KubeApiTestServer;
  // Before useModelManager's own beforeAll, which starts the backend against this server.
  beforeAll(async () => {
    kube = await KubeApiTestServer.start({
      namespaces: ['default', 'models'],
      users: {
        [ADMIN_TOKEN]: {
          name: 'admin',
          groups: ['system:masters'],
          rules: [],
        },
        // Like a RoleBinding in `models` only: no nodes, no StorageClasses, no Gateway in default.
        'portal-token': {
          name: 'system:serviceaccount:backstage:portal',
          rules: [
            {
              namespaces: ['models'],
              verbs: '*',
              resources: '*',
              apiGroups: '*',
            },
          ],
        },
      },
    });
    seedSchedulableCluster(kube);
  }, 120_000);
  const ctx = useModelManager(() => ({ kube, token: 'portal-token' }));
  afterAll(() => kube.stop());

  it('says unknown, with the RBAC it needs, where a read is forbidden; a deploy is not refused for it', async () => {
    const res = await request(ctx.server)
      .get(`/api/model-manager/models/${OVMS}/preflight`)
      .query({ cluster: 'local', namespace: 'models' })
      .set('Authorization', ALICE)
      .expect(200);
    const nodes = res.body.checks.find((c: any) => c.id === 'nodes');
    expect(nodes).toMatchObject({
      status: 'unknown',
      message: 'cannot list nodes on cluster local: RBAC (needs list on nodes)',
      fix: expect.stringMatching(/grant/),
    });
    // As RBAC does: a RoleBinding in `models` lets it get namespace `models` itself.
    expect(statuses(res.body.checks)).toMatchObject({
      namespace: 'pass',
      quota: 'pass',
      storage: 'unknown',
      gateway: 'unknown',
    });
    // Unknown is not a fail: a vLLM model (objects in `models` only) deploys.
    const deploy = await request(ctx.server)
      .post('/api/model-manager/models/qwen2-5-7b-instruct/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' });
    expect(deploy.status).toBe(200);
  });
});

describe('PreflightReader', () => {
  it('reads a Secret as metadata only: its data never reaches the portal', async () => {
    const kube = await KubeApiTestServer.start({ namespaces: ['models'] });
    try {
      kube.store.put({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'hf-token', namespace: 'models' },
        stringData: { token: 'hf_do_not_leak' },
      });
      const clusters = ClusterRegistry.fromConfig(
        new ConfigReader({
          kubernetes: testClustersConfig([{ name: 'local', url: kube.url }]),
        }),
        { logger: mockServices.logger.mock() },
      );
      const session = PreflightReader.create({ clusters }).session();
      const read = await session.get(
        'local',
        secretPath('models', 'hf-token'),
        'metadata',
      );
      expect(read).toEqual({
        ok: true,
        body: {
          kind: 'PartialObjectMetadata',
          apiVersion: 'meta.k8s.io/v1',
          metadata: expect.objectContaining({ name: 'hf-token' }),
        },
      });
      expect(JSON.stringify(read)).not.toMatch(
        /hf_do_not_leak|aGZfZG9fbm90X2xlYWs/,
      );
      // Asked once per session, whatever the number of targets.
      await session.get('local', secretPath('models', 'hf-token'), 'metadata');
      expect(
        kube.requests.filter(r => r.path.endsWith('/hf-token')),
      ).toHaveLength(1);
    } finally {
      await kube.stop();
    }
  });
});
