import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import {
  startModelManager,
  useModelManager,
  type ModelManagerTestContext,
} from '../__testUtils__/testBackend';

const ALICE = mockCredentials.user.header('user:default/alice');
const deploy = (ctx: ModelManagerTestContext, model: string) =>
  request(ctx.server)
    .post(`/api/model-manager/models/${model}/deploy`)
    .set('Authorization', ALICE)
    .send({ cluster: 'local', namespace: 'models' });

describe('Kubernetes API faults', () => {
  const ctx = useModelManager();
  beforeEach(() => {
    ctx.kube.faults.clear();
    ctx.kube.resetRequests();
  });
  const history = async (model: string) =>
    (
      await request(ctx.server)
        .get(`/api/model-manager/models/${model}/deployments`)
        .set('Authorization', ALICE)
    ).body.items;

  it('API server down: a clear message naming the object, recorded as failed; a re-run converges', async () => {
    ctx.kube.faults.inject({ kind: 'down' });
    const res = await deploy(ctx, 'bge-m3');
    expect(res.status).toBe(503);
    expect(res.body.error.message).toMatch(
      /^LLMInferenceService models\/bge-m3: the Kubernetes API is unavailable after 4 attempt\(s\): cannot reach the Kubernetes API.*nothing was applied/,
    );
    expect((await history('bge-m3'))[0]).toMatchObject({
      action: 'deploy',
      outcome: 'failed',
      message: res.body.error.message,
    });
    ctx.kube.faults.clear();
    const rerun = await deploy(ctx, 'bge-m3');
    expect(rerun.status).toBe(200);
    expect(rerun.body.objects[0].action).toBe('created');
  });

  it('a dropped connection mid-deploy is retried', async () => {
    ctx.kube.faults.inject({
      kind: 'drop',
      times: 1,
      match: {
        method: 'PATCH',
        pathIncludes: 'llminferenceservices/bge-reranker-v2-m3?fieldManager',
      },
    });
    const res = await deploy(ctx, 'bge-reranker-v2-m3');
    expect(res.status).toBe(200);
    expect(res.body.objects[0].action).toBe('created');
    expect(
      ctx.kube.requests.filter(
        r =>
          r.method === 'PATCH' &&
          r.path.endsWith('/bge-reranker-v2-m3') &&
          !r.query.dryRun,
      ),
    ).toHaveLength(2);
  });

  it('429 with Retry-After is retried', async () => {
    ctx.kube.faults.inject({
      kind: 'status',
      code: 429,
      retryAfterSeconds: 0,
      times: 1,
      match: { method: 'PATCH' },
    });
    expect((await deploy(ctx, 'qwen2-5-vl-7b-instruct')).status).toBe(200);
  });

  it('an API server slower than the request timeout fails with a timeout naming the object', async () => {
    const slow = await startModelManager({
      kube: ctx.kube,
      requestTimeoutMs: 200,
    });
    try {
      // A 200 ms request timeout against 1 s of server latency on every PATCH.
      ctx.kube.faults.inject({
        kind: 'latency',
        ms: 1000,
        times: 100,
        match: { method: 'PATCH' },
      });
      const res = await deploy(slow, 'llama-3-1-8b-instruct');
      expect(res.status).toBe(503);
      expect(res.body.error.message).toMatch(
        /^LLMInferenceService models\/llama-3-1-8b-instruct: the Kubernetes API is unavailable after 4 attempt\(s\).*(abort|timeout|time)/i,
      );
    } finally {
      ctx.kube.faults.clear();
      await slow.stop();
    }
  }, 30_000);
});
