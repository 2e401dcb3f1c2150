import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import {
  startModelManager,
  useModelManager,
} from '../__testUtils__/testBackend';

const ALICE = mockCredentials.user.header('user:default/alice');
const GATEWAY = 'https://ai-gateway.example.com';
const OV = 'phi-3-5-mini-instruct-int4-ov';
const JOB = {
  apiVersion: 'batch/v1',
  kind: 'Job',
  namespace: 'models',
  name: `${OV}-download`,
};
const POD = { apiVersion: 'v1', kind: 'Pod', namespace: 'models' };

/** A pod of the download Job, as the Job controller labels it. */
const downloadPod = (
  name: string,
  created: string,
  status: Record<string, any>,
) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'models',
    creationTimestamp: created,
    labels: { 'batch.kubernetes.io/job-name': JOB.name, 'job-name': JOB.name },
  },
  spec: {
    containers: [{ name: 'ovms-pull', image: 'openvino/model_server:2025.3' }],
  },
  status,
});
const cond = (type: string, status = 'True', extra: object = {}) => ({
  type,
  status,
  lastTransitionTime: '2026-12-01T10:00:00Z',
  ...extra,
});

describe('GET /models/:name/status: the endpoint and the weights download', () => {
  const ctx = useModelManager({
    modelManagerConfig: {
      kubernetes: {
        retryBaseDelayMs: 1,
        requestTimeoutMs: 5000,
        clusters: { local: { gatewayBaseUrl: `${GATEWAY}/` } },
      },
    },
  });
  const api = () => request(ctx.server);
  const status = async (model: string) => {
    const res = await api()
      .get(`/api/model-manager/models/${model}/status`)
      .set('Authorization', ALICE);
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(1);
    return res.body.items[0];
  };

  beforeAll(async () => {
    await api()
      .post(`/api/model-manager/models/${OV}/deploy`)
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' })
      .expect(200);
  });

  it('an OpenVINO model: clients use /v1 on the cluster gateway; the deploy result says so too', async () => {
    const item = await status(OV);
    expect(item.endpoint).toEqual({
      source: 'gateway',
      baseUrl: `${GATEWAY}/v1`,
      message: expect.stringMatching(/gateway/),
    });
    const again = await api()
      .post(`/api/model-manager/models/${OV}/deploy`)
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' });
    expect(again.body.endpoint).toBe(`${GATEWAY}/v1`);
  });

  // One row per state of the download, in the order a real download goes through them.
  const states: Array<{
    state: string;
    job?: Record<string, any>;
    pods?: Array<ReturnType<typeof downloadPod>>;
    expected: Record<string, any>;
    says: RegExp;
  }> = [
    {
      state: 'pending: the Job controller has not started a pod',
      expected: { phase: 'pending', failedPods: 0 },
      says: /^Waiting for the download pod to start: the Job controller has not started Job models\/.+-download yet \(no pod, and no start time in its status\)\. If it stays so, the Job's events say why \(kubectl -n models describe job .+-download\)\.$/,
    },
    {
      state:
        'pending: the pod cannot be scheduled (the weights claim is not bound)',
      job: { active: 1, ready: 0 },
      pods: [
        downloadPod('dl-1', '2026-12-01T10:00:00Z', {
          phase: 'Pending',
          conditions: [
            cond('PodScheduled', 'False', {
              reason: 'Unschedulable',
              message: 'pod has unbound immediate PersistentVolumeClaims',
            }),
          ],
        }),
      ],
      expected: { phase: 'pending', reason: 'Unschedulable' },
      says: /unbound immediate PersistentVolumeClaims/,
    },
    {
      state: 'running: the pod runs ovms --pull',
      job: { active: 1, ready: 1, startTime: '2026-12-01T10:01:00Z' },
      pods: [
        downloadPod('dl-1', '2026-12-01T10:00:00Z', {
          phase: 'Running',
          containerStatuses: [
            {
              name: 'ovms-pull',
              ready: true,
              state: { running: { startedAt: '2026-12-01T10:01:00Z' } },
            },
          ],
        }),
      ],
      expected: { phase: 'running', startTime: '2026-12-01T10:01:00Z' },
      says: /^Downloading\.$/,
    },
    {
      state: "failed: the Job gave up, with the pod's reason",
      job: {
        failed: 3,
        conditions: [
          cond('FailureTarget', 'True', { reason: 'BackoffLimitExceeded' }),
          cond('Failed', 'True', {
            reason: 'BackoffLimitExceeded',
            message: 'Job has reached the specified backoff limit',
          }),
        ],
      },
      pods: [
        downloadPod('dl-1', '2026-12-01T10:00:00Z', {
          phase: 'Failed',
          containerStatuses: [
            {
              name: 'ovms-pull',
              state: { terminated: { exitCode: 1, reason: 'Error' } },
            },
          ],
        }),
        downloadPod('dl-2', '2026-12-01T10:05:00Z', {
          phase: 'Failed',
          containerStatuses: [
            {
              name: 'ovms-pull',
              state: { terminated: { exitCode: 137, reason: 'OOMKilled' } },
            },
          ],
        }),
      ],
      expected: { phase: 'failed', reason: 'OOMKilled', failedPods: 3 },
      says: /^Download failed \(OOMKilled: exit code 137\); the Job gave up: BackoffLimitExceeded/,
    },
    {
      state: 'complete',
      job: {
        succeeded: 1,
        completionTime: '2026-12-01T10:20:00Z',
        conditions: [cond('SuccessCriteriaMet'), cond('Complete')],
      },
      pods: [
        downloadPod('dl-3', '2026-12-01T10:10:00Z', { phase: 'Succeeded' }),
      ],
      expected: { phase: 'complete', completionTime: '2026-12-01T10:20:00Z' },
      says: /^Download complete at 2026-12-01T10:20:00Z\.$/,
    },
  ];

  it.each(states)(
    'reports the download Job $state',
    async ({ job, pods, expected, says }) => {
      for (const p of ctx.kube.store.list({
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: 'models',
      })) {
        ctx.kube.store.delete({
          ...POD,
          name: String((p.metadata as any).name),
        });
      }
      ctx.kube.store.setStatus(JOB, job ?? {});
      for (const p of pods ?? []) ctx.kube.store.put(p);
      // A pod of another Job in the namespace is not read as this Job's.
      ctx.kube.store.put({
        ...downloadPod('other', '2026-12-01T11:00:00Z', {
          phase: 'Failed',
          reason: 'Evicted',
        }),
        metadata: {
          name: 'other',
          namespace: 'models',
          labels: { 'batch.kubernetes.io/job-name': 'other-download' },
        },
      });

      const item = await status(OV);
      expect(item.download).toEqual({
        name: JOB.name,
        namespace: 'models',
        found: true,
        progress: expect.objectContaining({ name: JOB.name, ...expected }),
      });
      expect(item.download.progress.message).toMatch(says);
      // The InferenceService waits for the weights: KServe has not reported, which is not an error.
      expect(item.summary.ready).toBeUndefined();
    },
  );

  it('says when the Job is gone (removed after it finished), and when the model has no download', async () => {
    ctx.kube.store.delete(JOB);
    expect((await status(OV)).download).toEqual({
      name: JOB.name,
      namespace: 'models',
      found: false,
    });
    await api()
      .post('/api/model-manager/models/qwen2-5-7b-instruct/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' })
      .expect(200);
    expect((await status('qwen2-5-7b-instruct')).download).toBeUndefined();
  });
});

describe('GET /models/:name/status: the endpoint without a configured gateway', () => {
  const ctx = useModelManager();
  const api = () => request(ctx.server);
  const LLM = {
    apiVersion: 'serving.kserve.io/v1alpha2',
    kind: 'LLMInferenceService',
    namespace: 'models',
    name: 'llama-3-1-8b-instruct',
  };

  it('vLLM: no endpoint until KServe reports status.url, then that URL with /v1', async () => {
    const deployed = await api()
      .post(`/api/model-manager/models/${LLM.name}/deploy`)
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' });
    expect(deployed.body.endpoint).toBeUndefined();
    const before = await api()
      .get(`/api/model-manager/models/${LLM.name}/status`)
      .set('Authorization', ALICE);
    expect(before.body.items[0].endpoint).toEqual({
      source: 'none',
      message: expect.stringMatching(
        /^Deployed, but no endpoint yet.*modelManager\.kubernetes\.clusters\.local\.gatewayBaseUrl/,
      ),
    });
    ctx.kube.store.setStatus(LLM, {
      url: 'http://llama.models.example.com',
      conditions: [cond('Ready')],
    });
    const after = await api()
      .get(`/api/model-manager/models/${LLM.name}/status`)
      .set('Authorization', ALICE);
    expect(after.body.items[0].endpoint).toMatchObject({
      source: 'status-url',
      baseUrl: 'http://llama.models.example.com/v1',
    });
  });

  it('a model deployed nowhere has no status items (the UI says "not deployed yet")', async () => {
    const res = await api()
      .get('/api/model-manager/models/bge-m3/status')
      .set('Authorization', ALICE);
    expect(res.body.items).toEqual([]);
  });
});

describe('modelManager.kubernetes.clusters.<name>.gatewayBaseUrl', () => {
  it.each([
    [
      'not an http(s) URL',
      { local: { gatewayBaseUrl: 'ai-gateway:8080' } },
      /modelManager\.kubernetes\.clusters\.local\.gatewayBaseUrl: 'ai-gateway:8080' is not an http\(s\) URL/,
    ],
  ])(
    'refuses %s at start, naming the key',
    async (_name, clusters, message) => {
      await expect(
        startModelManager({ modelManagerConfig: { kubernetes: { clusters } } }),
      ).rejects.toThrow(message);
    },
  );
});
