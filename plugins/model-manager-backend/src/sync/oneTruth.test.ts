import fs from 'node:fs';
import path from 'node:path';
import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import { catalogCopy } from '../__testUtils__/editableCatalog';
import { useModelManager } from '../__testUtils__/testBackend';

const ALICE = mockCredentials.user.header('user:default/alice');
const BASE = '/api/model-manager';
const QWEN = 'qwen2-5-7b-instruct';
const VL = 'qwen2-5-vl-7b-instruct';

/** The sync state without the manifests (the fleet-wide answer leaves them out). */
const lean = (sync: any) => {
  const { manifests: _r, ...runs } = sync.runs;
  const { manifests: _n, ...newDeploy } = sync.newDeploy;
  return { ...sync, runs, newDeploy };
};

/**
 * The scenarios of issue 21 through the real router: after each, the status answer (the Serving
 * tab), `/models/:name/fleet`, `/fleet`, `/rollouts/plan` and the history diff give one answer.
 */
describe('one truth per target', () => {
  const modelsFile = catalogCopy();
  const ctx = useModelManager({
    modelsFile,
    runtimesDir: path.join(path.dirname(modelsFile), 'runtimes'),
    modelManagerConfig: { watch: true },
  });
  const get = async (url: string, query: Record<string, string> = {}) => {
    const res = await request(ctx.server)
      .get(`${BASE}${url}`)
      .query(query)
      .set('Authorization', ALICE);
    expect(res.status).toBe(200);
    return res.body;
  };
  const post = async (url: string, body: Record<string, unknown>) => {
    const res = await request(ctx.server)
      .post(`${BASE}${url}`)
      .set('Authorization', ALICE)
      .send(body);
    expect(res.status).toBe(200);
    return res.body;
  };

  /** Every view of one target, checked to agree; returns the sync state. */
  const oneAnswer = async (model: string) => {
    const status = (await get(`/models/${model}/status`)).items.find(
      (i: any) => i.namespace === 'models',
    );
    const perModel = (await get(`/models/${model}/fleet`)).items.find(
      (i: any) => i.namespace === 'models',
    );
    const fleet = (await get('/fleet')).items.find(
      (i: any) => i.model === model && i.namespace === 'models',
    );
    expect(status.sync).toBeDefined();
    expect(perModel.sync).toEqual(status.sync);
    expect(fleet.sync).toEqual(lean(status.sync));
    // The history dialog's "against live" of the revision that applied what runs lists exactly
    // the fields the sync state calls drift.
    const revision = status.sync.runs.revision.revision;
    const diff = await get(`/models/${model}/deployments/${revision}/diff`);
    const drift = status.sync.differences
      .filter((d: any) => d.reason === 'drift')
      .map((d: any) => `${d.kind}${d.path}`);
    expect(
      diff.againstLive.objects.flatMap((o: any) =>
        o.fields.map((f: any) => `${o.kind}${f.path}`),
      ),
    ).toEqual(drift);
    return { sync: status.sync, target: fleet, diff };
  };
  const planFor = async (model: string, query: Record<string, string>) => {
    const plan = await get('/rollouts/plan', {
      runtime: 'vllm',
      namespace: 'models',
      ...query,
    });
    return {
      plan,
      move: plan.moves.find((m: any) => m.model === model),
      stay: plan.stays.find((s: any) => s.model === model),
    };
  };
  const pick = (m: any) => ({
    model: m.model,
    cluster: m.cluster,
    namespace: m.namespace,
    overrides: m.overrides,
  });
  const reasons = (sync: any) =>
    [...new Set(sync.differences.map((d: any) => d.reason))].sort();

  it('a request pin: what runs is the pinned version, env and arg; a new deploy would apply the default; held, never moved silently', async () => {
    await post(`/models/${QWEN}/deploy`, {
      cluster: 'local',
      namespace: 'models',
      serverVersion: '0.19.1',
      env: { VLLM_LOGGING_LEVEL: 'DEBUG' },
      args: ['--max-num-seqs=8'],
    });
    const { sync, target, diff } = await oneAnswer(QWEN);
    expect(sync.runs).toMatchObject({
      version: '0.19.1',
      image: expect.stringMatching(/:v0\.19\.1$/),
      env: expect.objectContaining({ VLLM_LOGGING_LEVEL: 'DEBUG' }),
      args: expect.arrayContaining(['--max-num-seqs=8']),
      revision: {
        revision: 1,
        action: 'deploy',
        actor: 'user:default/alice',
        overrides: { serverVersion: '0.19.1' },
      },
    });
    expect(sync.newDeploy).toMatchObject({
      version: '0.24.0',
      image: expect.stringMatching(/:v0\.24\.0$/),
    });
    expect(sync.newDeploy.args ?? []).not.toContain('--max-num-seqs=8');
    expect(sync.hold).toMatchObject({
      version: '0.19.1',
      by: 'request',
      revision: 1,
      catalogVersion: '0.24.0',
      text: expect.stringMatching(
        /^held at 0\.19\.1 by request of \d{4}-\d\d-\d\d by user:default\/alice \(revision 1\); models\.yaml default 0\.24\.0$/,
      ),
    });
    expect(sync.state).toBe('differs');
    expect(reasons(sync)).toEqual(['request-pin']);
    expect(sync.differences.map((d: any) => d.path)).toContain(
      '.spec.template.containers[name=main].image',
    );
    // Not drifted, not outdated: the same request would apply the same objects.
    expect(target).toMatchObject({ drifted: false, outdated: false });
    // History: the first revision there, and nothing differs from live.
    expect(diff.againstPrevious.previousRevision).toBeUndefined();
    expect(diff.againstLive.objects).toEqual([]);
    // Plans: held, with the same hold, toward the default and toward a version.
    for (const query of [{}, { version: '0.24.0' }] as Array<
      Record<string, string>
    >) {
      const { move, stay } = await planFor(QWEN, query);
      expect(move).toBeUndefined();
      expect(stay).toMatchObject({ why: 'held', hold: sync.hold });
    }
    const asked = await planFor(QWEN, { includeHeld: 'true' });
    expect(asked.move).toMatchObject({
      toVersion: '0.24.0',
      releasesHold: sync.hold,
      overrides: { env: { VLLM_LOGGING_LEVEL: 'DEBUG' } },
    });
    expect(asked.move.overrides.serverVersion).toBeUndefined();
  });

  it('a rollout to a non-default version: held by the rollout, not outdated; a plan without a version keeps it', async () => {
    await post(`/models/${VL}/deploy`, {
      cluster: 'local',
      namespace: 'models',
    });
    expect((await oneAnswer(VL)).sync).toMatchObject({
      state: 'in-sync',
      differences: [],
    });
    const { move } = await planFor(VL, { version: '0.19.1' });
    expect(move).toMatchObject({ fromVersion: '0.24.0', toVersion: '0.19.1' });
    const applied = await post('/rollouts/apply', {
      runtime: 'vllm',
      version: '0.19.1',
      rolloutId: 'task-1',
      targets: [pick(move)],
    });
    expect(applied.items[0]).toMatchObject({ outcome: 'applied', revision: 2 });
    const { sync, target, diff } = await oneAnswer(VL);
    expect(sync.runs).toMatchObject({
      version: '0.19.1',
      revision: { revision: 2, action: 'rollout', rolloutId: 'task-1' },
    });
    expect(sync.hold).toMatchObject({
      version: '0.19.1',
      by: 'rollout',
      text: expect.stringMatching(
        /^held at 0\.19\.1 by rollout of .* \(revision 2\); models\.yaml default 0\.24\.0$/,
      ),
    });
    expect(reasons(sync)).toEqual(['rollout']);
    expect(sync.differences[0].text).toMatch(
      /^rollout to 0\.19\.1 \(revision 2/,
    );
    expect(target).toMatchObject({ outdated: false, drifted: false });
    // What this rollout changed: the image, from revision 1.
    expect(diff.againstPrevious.previousRevision).toBe(1);
    expect(
      diff.againstPrevious.objects.flatMap((o: any) =>
        o.fields.map((f: any) => f.path),
      ),
    ).toContain('.spec.template.containers[name=main].image');
    expect((await planFor(VL, {})).stay).toMatchObject({
      why: 'held',
      hold: sync.hold,
    });
  });

  it('a kubectl edit: drift on every view, the history diff against live lists the same field', async () => {
    const res = await fetch(
      `${ctx.kube.url}/apis/serving.kserve.io/v1alpha2/namespaces/models/llminferenceservices/${VL}?fieldManager=kubectl&force=true`,
      {
        method: 'PATCH',
        headers: {
          'Content-Type': 'application/apply-patch+yaml',
          Authorization: 'Bearer admin-token',
        },
        body: JSON.stringify({
          apiVersion: 'serving.kserve.io/v1alpha2',
          kind: 'LLMInferenceService',
          metadata: { name: VL, namespace: 'models' },
          spec: {
            template: {
              containers: [
                {
                  name: 'main',
                  image: 'docker.io/vllm/vllm-openai-cpu:v0.19.1-hotfix',
                },
              ],
            },
          },
        }),
      },
    );
    expect(res.status).toBeLessThan(300);
    const { sync, target, diff } = await oneAnswer(VL);
    expect(sync.runs.image).toBe(
      'docker.io/vllm/vllm-openai-cpu:v0.19.1-hotfix',
    );
    const image = sync.differences.find(
      (d: any) => d.path === '.spec.template.containers[name=main].image',
    );
    expect(image).toMatchObject({
      reason: 'drift',
      runs: 'docker.io/vllm/vllm-openai-cpu:v0.19.1-hotfix',
      applied: 'docker.io/vllm/vllm-openai-cpu:v0.19.1',
    });
    expect(target.drifted).toBe(true);
    expect(diff.againstLive.objects).toHaveLength(1);
  });

  it('default_version moved to the rolled-out version: the promote rollout releases the rollout hold, the request pin stays', async () => {
    fs.writeFileSync(
      modelsFile,
      fs
        .readFileSync(modelsFile, 'utf8')
        .replace('default_version: "0.24.0"', 'default_version: "0.19.1"'),
    );
    for (;;) {
      const vllm = await get('/runtimes/vllm');
      if (vllm.defaultVersion === '0.19.1') break;
      await new Promise(resolve => setImmediate(resolve));
    }
    const vl = await oneAnswer(VL);
    expect(vl.sync.hold).toMatchObject({
      version: '0.19.1',
      catalogVersion: '0.19.1',
    });
    // Only the kubectl edit differs now.
    expect(reasons(vl.sync)).toEqual(['drift']);
    const qwen = await oneAnswer(QWEN);
    expect(qwen.sync.hold).toMatchObject({
      version: '0.19.1',
      by: 'request',
      catalogVersion: '0.19.1',
    });
    // The request's env and arg still differ from a new deploy; the version no longer does.
    expect(reasons(qwen.sync)).toEqual(['request-pin']);
    expect(qwen.sync.differences.some((d: any) => /image$/.test(d.path))).toBe(
      false,
    );

    const { plan, move } = await planFor(VL, {});
    expect(move).toMatchObject({
      toVersion: '0.19.1',
      releasesHold: { version: '0.19.1', by: 'rollout' },
    });
    expect(move.overrides).toEqual({});
    expect(plan.stays.find((s: any) => s.model === QWEN)).toMatchObject({
      why: 'up-to-date',
    });
    const applied = await post('/rollouts/apply', {
      runtime: 'vllm',
      rolloutId: 'task-2',
      force: true,
      targets: [pick(move)],
    });
    expect(applied.items[0]).toMatchObject({ outcome: 'applied' });
    const after = await oneAnswer(VL);
    expect(after.sync.hold).toBeUndefined();
    expect(after.sync).toMatchObject({ state: 'in-sync', differences: [] });
    expect((await planFor(VL, {})).stay).toMatchObject({ why: 'up-to-date' });
  });

  it('the history diff says what was wrong with the revision asked for', async () => {
    const bad = await request(ctx.server)
      .get(`${BASE}/models/${QWEN}/deployments/first/diff`)
      .set('Authorization', ALICE);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe(
      "revision must be a positive whole number, got 'first'",
    );
    const missing = await request(ctx.server)
      .get(`${BASE}/models/${QWEN}/deployments/99/diff`)
      .set('Authorization', ALICE);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe(
      `model ${QWEN} has no revision 99 that applied objects; see GET /models/${QWEN}/deployments`,
    );
    const unknown = await request(ctx.server)
      .get(`${BASE}/models/no-such-model/deployments/1/diff`)
      .set('Authorization', ALICE);
    expect(unknown.status).toBe(404);
  });
});
