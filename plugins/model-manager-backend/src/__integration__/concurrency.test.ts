import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import { useModelManager } from '../__testUtils__/testBackend';
import { FIXTURE_CATALOG_DIR } from '@model-manager/plugin-model-manager-common/testUtils';

const ALICE = mockCredentials.user.header('user:default/alice');

/** A models.yaml with `n` vLLM models besides the repository's runtimes. */
function catalogWith(n: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-concurrency-'));
  fs.cpSync(
    path.join(FIXTURE_CATALOG_DIR, 'runtimes'),
    path.join(dir, 'runtimes'),
    {
      recursive: true,
    },
  );
  const repo = fs.readFileSync(
    path.join(FIXTURE_CATALOG_DIR, 'models.yaml'),
    'utf8',
  );
  const models = Array.from(
    { length: n },
    (_, i) =>
      `  model-${i}:\n    model_id: org/model-${i}\n    category: llm\n    server:\n      runtime: vllm\n`,
  ).join('');
  fs.writeFileSync(
    path.join(dir, 'models.yaml'),
    `models:\n${models}\n${repo.slice(repo.indexOf('\nruntimes:') + 1)}`,
  );
  return path.join(dir, 'models.yaml');
}

describe('concurrent deploys', () => {
  const ctx = useModelManager(() => {
    const modelsFile = catalogWith(50);
    return {
      modelsFile,
      runtimesDir: path.join(path.dirname(modelsFile), 'runtimes'),
    };
  });

  it('50 different models at once: 50 applied, none lost, 50 history rows', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        request(ctx.server)
          .post(`/api/model-manager/models/model-${i}/deploy`)
          .set('Authorization', ALICE)
          .send({ cluster: 'local', namespace: 'models' }),
      ),
    );
    expect(results.map(r => r.status)).toEqual(Array(50).fill(200));
    const live = ctx.kube.store.list({
      apiVersion: 'serving.kserve.io/v1alpha2',
      kind: 'LLMInferenceService',
      namespace: 'models',
    });
    expect(live.map(o => (o.metadata as any).name).sort()).toEqual(
      Array.from({ length: 50 }, (_, i) => `model-${i}`).sort(),
    );
    const histories = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        request(ctx.server)
          .get(`/api/model-manager/models/model-${i}/deployments`)
          .set('Authorization', ALICE),
      ),
    );
    expect(histories.reduce((n, h) => n + h.body.items.length, 0)).toBe(50);
    // Revisions are per model: each model's first deploy is its revision 1.
    expect(results.map(r => r.body.revision)).toEqual(Array(50).fill(1));
  });

  it('20 deploys of the same model at once: the final object equals one of the requests', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request(ctx.server)
          .post('/api/model-manager/models/model-0/deploy')
          .set('Authorization', ALICE)
          .send({
            cluster: 'local',
            namespace: 'models',
            env: { REQUEST: String(i) },
          }),
      ),
    );
    // Same field manager: no conflicts among our own applies; every request succeeds.
    expect(results.map(r => r.status)).toEqual(Array(20).fill(200));
    // One model, 20 deploys at once: revisions 1 to 20 of model-0 (after the first test's 1), none shared.
    expect(results.map(r => r.body.revision).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 2),
    );
    const live = ctx.kube.store.get({
      apiVersion: 'serving.kserve.io/v1alpha2',
      kind: 'LLMInferenceService',
      namespace: 'models',
      name: 'model-0',
    }) as any;
    const env = live.spec.template.containers[0].env as Array<{
      name: string;
      value: string;
    }>;
    const request_ = env.filter(e => e.name === 'REQUEST');
    expect(request_).toHaveLength(1);
    expect(Number(request_[0].value)).toBeGreaterThanOrEqual(0);
    expect(Number(request_[0].value)).toBeLessThan(20);
  });
});
