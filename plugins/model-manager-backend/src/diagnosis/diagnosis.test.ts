import { mockCredentials } from '@backstage/backend-test-utils';
import {
  ADMIN_TOKEN,
  KubeApiTestServer,
} from '@model-manager/kube-api-test-server';
import request from 'supertest';
import { startModelManager } from '../__testUtils__/testBackend';
import { seedSchedulableCluster } from '@model-manager/test-harness';

const ALICE = mockCredentials.user.header('user:default/alice');
const CAROL = mockCredentials.user.header('user:default/carol');
const MODEL = 'qwen2-5-7b-instruct';
const NS = 'models';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const LLM = {
  apiVersion: 'serving.kserve.io/v1alpha2',
  kind: 'LLMInferenceService',
  namespace: NS,
  name: MODEL,
};

/** A workload pod of the LLMInferenceService, labelled as KServe labels it. */
const workloadPod = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    labels: {
      'app.kubernetes.io/part-of': 'llminferenceservice',
      'app.kubernetes.io/name': MODEL,
      'app.kubernetes.io/component': 'llminferenceservice-workload',
      'kserve.io/component': 'workload',
    },
  },
  spec: {
    nodeName: 'node-1',
    containers: [{ name: 'main', image: 'vllm/vllm-openai:v9.9.9' }],
  },
});

const warning = (name: string, reason: string, message: string) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name },
  involvedObject: { kind: 'Pod', name: 'qwen-0', namespace: NS },
  reason,
  message,
  type: 'Warning',
  count: 4,
  lastTimestamp: '2026-12-01T10:00:00Z',
  source: { component: 'kubelet' },
});

describe('GET /models/:name/status: why it is not Ready', () => {
  let kube: KubeApiTestServer;
  let ctx: Awaited<ReturnType<typeof startModelManager>>;
  let call: (m: string, path: string, body?: unknown) => Promise<void>;

  beforeAll(async () => {
    kube = await KubeApiTestServer.start({
      namespaces: ['default', NS],
      impersonatable: {
        'user:default/alice': [
          { namespaces: '*', verbs: '*', resources: '*', apiGroups: '*' },
        ],
        // carol may read the model and its pods, but not their logs nor the Events.
        'user:default/carol': [
          {
            namespaces: [NS],
            verbs: ['get', 'list'],
            resources: ['llminferenceservices', 'pods'],
            apiGroups: '*',
          },
        ],
      },
    });
    seedSchedulableCluster(kube);
    ctx = await startModelManager({ kube, impersonateUser: true });
    // The kubelet's part, through the double's API as the admin: pods, their status, Events.
    call = async (method, path, body) => {
      const req = request(kube.url)
        [method.toLowerCase() as 'get'](path)
        .set('Authorization', `Bearer ${ADMIN_TOKEN}`);
      const res =
        body === undefined ? await req : await req.send(body as object);
      if (res.status >= 300)
        throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    };
    await request(ctx.server)
      .post(`/api/model-manager/models/${MODEL}/deploy`)
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: NS })
      .expect(200);
    await call('POST', PODS, workloadPod('qwen-0'));
  }, 120_000);

  afterAll(async () => {
    await ctx?.backend.stop();
    await kube?.stop();
  });

  const setPodStatus = (containerStatuses: unknown[], phase = 'Running') =>
    call('PUT', `${PODS}/qwen-0/status`, {
      ...workloadPod('qwen-0'),
      status: { phase, containerStatuses },
    });

  const status = async (as = ALICE, query = '') => {
    const res = await request(ctx.server)
      .get(`/api/model-manager/models/${MODEL}/status${query}`)
      .set('Authorization', as);
    expect(res.status).toBe(200);
    return res.body.items[0];
  };

  it('an image tag that does not exist: ImagePullBackOff, explained by the kubelet Event', async () => {
    await setPodStatus(
      [
        {
          name: 'main',
          ready: false,
          restartCount: 0,
          image: 'vllm/vllm-openai:v9.9.9',
          state: {
            waiting: {
              reason: 'ImagePullBackOff',
              message: 'Back-off pulling image "vllm/vllm-openai:v9.9.9"',
            },
          },
        },
      ],
      'Pending',
    );
    await call(
      'POST',
      `/api/v1/namespaces/${NS}/events`,
      warning(
        'qwen-0.pull',
        'Failed',
        'Failed to pull image "vllm/vllm-openai:v9.9.9": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/vllm/vllm-openai:v9.9.9": failed to resolve reference "docker.io/vllm/vllm-openai:v9.9.9": docker.io/vllm/vllm-openai:v9.9.9: not found',
      ),
    );
    const { diagnosis } = await status();
    expect(diagnosis.headline).toMatch(
      /^the image tag does not exist in the registry \(Event Failed on Pod\/qwen-0/,
    );
    expect(diagnosis.findings.map((f: any) => f.signature)).toEqual([
      'image-tag-not-found',
      'image-pull',
    ]);
    expect(diagnosis.pods).toEqual([
      expect.objectContaining({
        name: 'qwen-0',
        role: 'server',
        phase: 'Pending',
        containers: [
          expect.objectContaining({
            state: 'waiting',
            reason: 'ImagePullBackOff',
          }),
        ],
      }),
    ]);
    // A waiting container has no log: none is read.
    expect(diagnosis.logs).toEqual([]);
  });

  it("then OOMKilled with the KV cache: the previous run's log says why", async () => {
    await call('DELETE', `/api/v1/namespaces/${NS}/events/qwen-0.pull`);
    await setPodStatus([
      {
        name: 'main',
        ready: false,
        restartCount: 3,
        containerID: 'containerd://2',
        state: {
          waiting: {
            reason: 'CrashLoopBackOff',
            message: 'back-off 40s restarting failed container=main',
          },
        },
        lastState: {
          terminated: {
            reason: 'OOMKilled',
            exitCode: 137,
            containerID: 'containerd://1',
          },
        },
      },
    ]);
    kube.setPodLog(
      { namespace: NS, pod: 'qwen-0', container: 'main', previous: true },
      [
        'INFO Loading weights took 12.1 seconds',
        "ValueError: To serve at least one request with the model's max seq len (32768), (4.0 GiB KV cache is needed, which is larger than the available KV cache memory (2.0 GiB).",
        '',
      ].join('\n'),
    );
    const { diagnosis } = await status();
    expect(diagnosis.findings.map((f: any) => f.signature)).toEqual([
      'kv-cache-too-small',
      'oom-killed',
      'crash-loop',
    ]);
    expect(diagnosis.findings[0].source).toBe('runtimes/vllm/profile.yaml');
    expect(diagnosis.headline).toMatch(/^the KV cache .* is too small/);
    expect(diagnosis.logs).toEqual([
      {
        pod: 'qwen-0',
        container: 'main',
        previous: true,
        lines: [
          'INFO Loading weights took 12.1 seconds',
          expect.stringMatching(/KV cache is needed/),
        ],
      },
    ]);
    expect(
      kube.requests.some(
        r =>
          r.path.endsWith('/pods/qwen-0/log') &&
          r.query.previous === 'true' &&
          r.query.tailLines === '40',
      ),
    ).toBe(true);
  });

  it("the fleet's NotReady reason (the Deployments page) is the same headline", async () => {
    const { diagnosis } = await status();
    const fleet = await request(ctx.server)
      .get(`/api/model-manager/models/${MODEL}/fleet`)
      .set('Authorization', ALICE);
    expect(fleet.status).toBe(200);
    expect(fleet.body.items).toEqual([
      expect.objectContaining({
        state: 'NotReady',
        reason: diagnosis.headline,
      }),
    ]);
    // KServe has reported nothing yet, but a known failure is failing, not waiting.
    expect(fleet.body.items[0].awaitingKServe).toBeUndefined();
  });

  it('reads pods and Events once per namespace, with a label selector for the pods', async () => {
    kube.resetRequests();
    await status();
    const lists = kube.requests.filter(
      r => r.method === 'GET' && /\/(pods|events)$/.test(r.path),
    );
    expect(lists.map(r => [r.path, r.query.labelSelector ?? ''])).toEqual(
      expect.arrayContaining([
        [
          PODS,
          `app.kubernetes.io/part-of=llminferenceservice,app.kubernetes.io/name in (${MODEL})`,
        ],
        [`/api/v1/namespaces/${NS}/events`, ''],
      ]),
    );
    // One pod LIST and one Event LIST as the signed-in user (the status answer's diagnosis), and
    // one of each with the backend's account for the fleet's reason (its `sync` comes from the
    // fleet, which diagnoses its NotReady targets per namespace too): never one per object.
    const asUser = lists.filter(r => r.impersonatedUser);
    const asBackend = lists.filter(r => !r.impersonatedUser);
    expect(asUser).toHaveLength(2);
    expect(asBackend).toHaveLength(2);
  });

  it('a cluster whose RBAC forbids pod logs and Events: the diagnosis says so, the rest still answers', async () => {
    const item = await status(CAROL);
    expect(item.found).toBe(true);
    expect(item.diagnosis.problems).toEqual([
      expect.stringMatching(
        /^cannot read events on cluster local: RBAC \(needs list on events in namespace models\)/,
      ),
      expect.stringMatching(
        /^cannot read pod logs on cluster local: RBAC \(needs get on pods\/log in namespace models\)/,
      ),
    ]);
    // The pods could be read: the container state still explains it.
    expect(item.diagnosis.findings.map((f: any) => f.signature)).toEqual([
      'oom-killed',
      'crash-loop',
    ]);
  });

  it("an OpenVINO model: the weights download Job's failed pod and its log, matched with OVMS's signatures", async () => {
    const OV = 'phi-3-5-mini-instruct-int4-ov';
    const JOB = `${OV}-download`;
    await request(ctx.server)
      .post(`/api/model-manager/models/${OV}/deploy`)
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: NS })
      .expect(200);
    // The Job controller's pod (labelled batch.kubernetes.io/job-name), failed at its first run.
    await call('POST', PODS, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `${JOB}-x1`,
        labels: { 'batch.kubernetes.io/job-name': JOB, 'job-name': JOB },
      },
      spec: {
        nodeName: 'node-1',
        restartPolicy: 'Never',
        containers: [{ name: 'ovms-pull', image: 'openvino/model_server' }],
      },
    });
    await call('PUT', `${PODS}/${JOB}-x1/status`, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `${JOB}-x1` },
      status: {
        phase: 'Failed',
        containerStatuses: [
          {
            name: 'ovms-pull',
            ready: false,
            restartCount: 0,
            containerID: 'containerd://9',
            state: {
              terminated: {
                reason: 'Error',
                exitCode: 1,
                containerID: 'containerd://9',
              },
            },
          },
        ],
      },
    });
    kube.setPodLog(
      { namespace: NS, pod: `${JOB}-x1`, container: 'ovms-pull' },
      '--weight-format parameter unsupported for OpenVINO models.\n',
    );
    const res = await request(ctx.server)
      .get(`/api/model-manager/models/${OV}/status`)
      .set('Authorization', ALICE);
    const { diagnosis } = res.body.items[0];
    expect(diagnosis.findings[0]).toMatchObject({
      signature: 'weight-format-on-ir-repo',
      source: 'runtimes/openvino/profile.yaml',
      subject: `log of pod ${JOB}-x1 container ovms-pull`,
    });
    expect(diagnosis.pods).toEqual([
      expect.objectContaining({ name: `${JOB}-x1`, role: 'download' }),
    ]);
  });

  it('a Ready target has no diagnosis unless asked for', async () => {
    kube.store.setStatus(LLM, {
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          lastTransitionTime: '2026-12-01T10:00:00Z',
        },
      ],
      url: 'http://qwen.models.example',
    });
    const ready = await status();
    expect(ready.summary.ready).toBe(true);
    expect(ready.diagnosis).toBeUndefined();
    const asked = await status(ALICE, '?diagnose=true');
    expect(asked.diagnosis.pods.map((p: any) => p.name)).toEqual(['qwen-0']);
  });
});
