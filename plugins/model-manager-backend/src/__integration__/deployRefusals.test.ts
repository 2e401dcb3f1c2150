import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import { useModelManager } from '../__testUtils__/testBackend';

const ALICE = mockCredentials.user.header('user:default/alice');

describe('deploys refused before or while they are sent', () => {
  const ctx = useModelManager();
  beforeEach(() => {
    ctx.kube.faults.clear();
    ctx.kube.resetRequests();
  });
  const deploy = (model: string, body: Record<string, unknown> = {}) =>
    request(ctx.server)
      .post(`/api/model-manager/models/${model}/deploy`)
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models', ...body });

  // etcd stores at most --max-request-bytes (1.5 MiB) per write: a real kube-apiserver answers a
  // larger object 500 "etcdserver: request is too large" (recorded against v1.34.9).
  it.each([false, true])(
    'an object too large for etcd is a 400 naming the field, with no Kubernetes request (dry run: %s)',
    async dryRun => {
      const res = await deploy('qwen2-5-7b-instruct', {
        dryRun,
        // 120 flags of 15,000 characters each: every one within the request's limits.
        args: Array.from(
          { length: 120 },
          (_, i) => `--flag-${i}=${'x'.repeat(15_000)}`,
        ),
      });
      expect(res.status).toBe(400);
      expect(res.body.error.name).toBe('InputError');
      expect(res.body.error.message).toMatch(
        /^LLMInferenceService models\/qwen2-5-7b-instruct is 1\.72 MiB .* etcd refuses writes over its --max-request-bytes \(default 1\.5 MiB\) .* Its largest field is spec\.[\w.[\]]*args \(1\.72 MiB\): make it smaller/,
      );
      expect(ctx.kube.requests).toEqual([]);
    },
  );

  it('a single object whose read fails says nothing was applied, not that a dry run was sent', async () => {
    ctx.kube.faults.inject({
      kind: 'status',
      code: 500,
      times: 4,
      match: { method: 'GET', pathIncludes: 'bge-reranker-v2-m3' },
    });
    const res = await deploy('bge-reranker-v2-m3');
    expect(res.status).toBe(503);
    expect(res.body.error.message).toMatch(/\(nothing was applied\)$/);
    expect(res.body.error.message).not.toMatch(/dry run/);
    expect(ctx.kube.requests.some(r => r.query.dryRun)).toBe(false);
  });
});
