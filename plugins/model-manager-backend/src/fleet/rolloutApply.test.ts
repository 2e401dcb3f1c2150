import { mockCredentials } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import request from 'supertest';
import { useModelManager } from '../__testUtils__/testBackend';

const ALICE = mockCredentials.user.header('user:default/alice');
const target = (model: string, overrides: Record<string, unknown> = {}) => ({
  model,
  cluster: 'local',
  namespace: 'models',
  overrides,
});

describe('POST /rollouts/apply', () => {
  const ctx = useModelManager();
  const apply = (body: Record<string, unknown>) =>
    request(ctx.server)
      .post('/api/model-manager/rollouts/apply')
      .set('Authorization', ALICE)
      .send(body);
  const appliesOf = (model: string) =>
    ctx.kube.requests.filter(
      r =>
        r.method === 'PATCH' &&
        r.path.endsWith(`/llminferenceservices/${model}`) &&
        r.query.dryRun === undefined,
    ).length;

  it('applies a batch as rollouts, one audit event and history row per target; a target of another runtime fails alone', async () => {
    ctx.events.length = 0;
    const res = await apply({
      runtime: 'vllm',
      version: '0.19.1',
      rolloutId: 'r-1',
      targets: [
        target('bge-m3', { serverVersion: '0.19.1' }),
        target('bge-small-en-v1-5-ov', { serverVersion: '0.19.1' }),
        target('bge-reranker-v2-m3', { serverVersion: '0.19.1' }),
      ],
      concurrency: 2,
    });
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      {
        model: 'bge-m3',
        cluster: 'local',
        namespace: 'models',
        outcome: 'applied',
        revision: 1,
        serverVersion: '0.19.1',
      },
      {
        model: 'bge-small-en-v1-5-ov',
        cluster: 'local',
        namespace: 'models',
        outcome: 'failed',
        message: expect.stringMatching(
          /flat|rollout\.runtime is vllm, but model bge-small-en-v1-5-ov runs on runtime openvino/,
        ),
      },
      {
        model: 'bge-reranker-v2-m3',
        cluster: 'local',
        namespace: 'models',
        outcome: 'applied',
        revision: 1,
        serverVersion: '0.19.1',
      },
    ]);
    expect(
      ctx.events.map(e => [e.eventId, e.meta.model, e.outcome]).sort(),
    ).toEqual([
      ['model-rollout', 'bge-m3', 'success'],
      ['model-rollout', 'bge-reranker-v2-m3', 'success'],
      ['model-rollout', 'bge-small-en-v1-5-ov', 'fail'],
    ]);
    const history = await request(ctx.server)
      .get('/api/model-manager/models/bge-m3/deployments')
      .set('Authorization', ALICE);
    expect(history.body.items[0]).toMatchObject({
      revision: 1,
      action: 'rollout',
      rolloutId: 'r-1',
      actor: 'user:default/alice',
    });
  });

  it('never applies a target twice for one rollout: a resent batch answers what was applied', async () => {
    const before = appliesOf('bge-m3');
    const res = await apply({
      runtime: 'vllm',
      version: '0.19.1',
      rolloutId: 'r-1',
      targets: [target('bge-m3', { serverVersion: '0.19.1' })],
    });
    expect(res.body.items).toEqual([
      {
        model: 'bge-m3',
        cluster: 'local',
        namespace: 'models',
        outcome: 'already-applied',
        revision: 1,
        serverVersion: '0.19.1',
      },
    ]);
    expect(appliesOf('bge-m3')).toBe(before);
    // Another rollout applies it again.
    const other = await apply({
      runtime: 'vllm',
      rolloutId: 'r-2',
      targets: [target('bge-m3')],
    });
    expect(other.body.items[0]).toMatchObject({
      outcome: 'applied',
      revision: 2,
      serverVersion: '0.24.0',
    });
  });

  it('stops starting targets once more than maxFailures failed', async () => {
    const res = await apply({
      runtime: 'vllm',
      rolloutId: 'r-3',
      targets: [
        target('nope-1'),
        target('nope-2'),
        target('qwen2-5-7b-instruct'),
      ],
      concurrency: 1,
      maxFailures: 1,
    });
    expect(res.body.items.map((i: any) => i.outcome)).toEqual([
      'failed',
      'failed',
      'not-attempted',
    ]);
    expect(res.body.items[0].message).toMatch(/unknown model 'nope-1'/);
  });

  it('counts a failed apply (the cluster refused it) toward maxFailures: with 0 the next target does not start', async () => {
    ctx.kube.faults.inject({
      kind: 'status',
      code: 409,
      match: {
        method: 'PATCH',
        pathIncludes: '/llminferenceservices/qwen3-30b-a3b',
      },
    });
    const before = appliesOf('qwen2-5-vl-7b-instruct');
    const res = await apply({
      runtime: 'vllm',
      rolloutId: 'r-5',
      targets: [target('qwen3-30b-a3b'), target('qwen2-5-vl-7b-instruct')],
      concurrency: 1,
      maxFailures: 0,
    });
    expect(res.body.items.map((i: any) => i.outcome)).toEqual([
      'failed',
      'not-attempted',
    ]);
    expect(appliesOf('qwen2-5-vl-7b-instruct')).toBe(before);
  });

  it('refuses a bad batch with 400 naming the field', async () => {
    const res = await apply({ runtime: 'vllm', rolloutId: 'r-4', targets: [] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(
      /targets: targets must not be empty/,
    );
  });
});

describe('POST /rollouts/apply without model-manager.model.deploy', () => {
  const ctx = useModelManager({ permission: AuthorizeResult.DENY });

  it('is a 403 naming the permission, audited; nothing reaches the cluster', async () => {
    ctx.kube.resetRequests();
    const res = await request(ctx.server)
      .post('/api/model-manager/rollouts/apply')
      .set('Authorization', ALICE)
      .send({ runtime: 'vllm', rolloutId: 'r-5', targets: [target('bge-m3')] });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe(
      'user:default/alice may not model-manager.model.deploy model bge-m3 (component:default/bge-m3): the permission policy denied it; so may not roll out this batch (nothing was applied)',
    );
    expect(ctx.events).toEqual([
      expect.objectContaining({ eventId: 'model-rollout', outcome: 'fail' }),
    ]);
    expect(ctx.kube.requests.filter(r => r.method === 'PATCH')).toEqual([]);
  });
});

describe('POST /rollouts/apply after the fleet has been read', () => {
  const ctx = useModelManager();

  it('applies each target without reading it first, telling created from configured by the fleet read', async () => {
    const deployed = await request(ctx.server)
      .post('/api/model-manager/models/bge-m3/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' });
    expect(deployed.status).toBe(200);
    const fleet = await request(ctx.server)
      .get('/api/model-manager/fleet')
      .set('Authorization', ALICE);
    expect(fleet.body.items.map((t: any) => t.model)).toEqual(['bge-m3']);

    ctx.kube.resetRequests();
    const res = await request(ctx.server)
      .post('/api/model-manager/rollouts/apply')
      .set('Authorization', ALICE)
      .send({
        runtime: 'vllm',
        version: '0.19.1',
        rolloutId: 'r-seen',
        targets: [
          target('bge-m3', { serverVersion: '0.19.1' }),
          target('bge-reranker-v2-m3', { serverVersion: '0.19.1' }),
        ],
      });
    expect(res.body.items.map((i: any) => i.outcome)).toEqual([
      'applied',
      'applied',
    ]);
    const touched = ctx.kube.requests.filter(r =>
      /\/llminferenceservices\/(bge-m3|bge-reranker-v2-m3)$/.test(r.path),
    );
    expect(touched.map(r => r.method)).toEqual(['PATCH', 'PATCH']);
    const actionOf = async (model: string) =>
      (
        await request(ctx.server)
          .get(`/api/model-manager/models/${model}/deployments`)
          .set('Authorization', ALICE)
      ).body.items[0].results.map((r: any) => r.action);
    expect(await actionOf('bge-m3')).toEqual(['configured']);
    expect(await actionOf('bge-reranker-v2-m3')).toEqual(['created']);
  });
});
