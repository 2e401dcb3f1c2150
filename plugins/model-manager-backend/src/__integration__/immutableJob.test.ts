import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import { useModelManager } from '../__testUtils__/testBackend';
import { FIXTURE_CATALOG_DIR } from '@model-manager/plugin-model-manager-common/testUtils';

const ALICE = mockCredentials.user.header('user:default/alice');
const MODEL = 'phi-3-5-mini-instruct-int4-ov';
const JOB = {
  apiVersion: 'batch/v1',
  kind: 'Job',
  name: `${MODEL}-download`,
  namespace: 'models',
};

/** A copy of the repository's catalog that a test may edit. */
function catalogCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-immutable-'));
  fs.cpSync(
    path.join(FIXTURE_CATALOG_DIR, 'runtimes'),
    path.join(dir, 'runtimes'),
    {
      recursive: true,
    },
  );
  fs.copyFileSync(
    path.join(FIXTURE_CATALOG_DIR, 'models.yaml'),
    path.join(dir, 'models.yaml'),
  );
  return path.join(dir, 'models.yaml');
}

// A Job's pod template is immutable (kube's ValidateJobSpecUpdate; the test double refuses it as
// kube-apiserver v1.34.9 does): changing what an OpenVINO model downloads replaces its Job.
describe('the weights download Job after a change of what it downloads', () => {
  const modelsFile = catalogCopy();
  const ctx = useModelManager({
    modelsFile,
    runtimesDir: path.join(path.dirname(modelsFile), 'runtimes'),
    modelManagerConfig: { watch: true },
  });
  const api = () => request(ctx.server);
  const deploy = (body: Record<string, unknown> = {}) =>
    api()
      .post(`/api/model-manager/models/${MODEL}/deploy`)
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models', ...body });
  // Through the API (`objects`), so this suite also runs against a real kube-apiserver.
  const liveJob = async () => (await ctx.kube.objects.get(JOB)) as any;
  const jobArgs = async () =>
    (await liveJob())?.spec.template.spec.containers[0].args;
  /** Edits models.yaml and waits until the backend renders the change. */
  const setWeightFormat = async (format: string) => {
    const text = fs.readFileSync(modelsFile, 'utf8');
    fs.writeFileSync(
      modelsFile,
      text.replace(/weight_format: int\d/, `weight_format: ${format}`),
    );
    for (;;) {
      const res = await api()
        .post(`/api/model-manager/models/${MODEL}/render`)
        .set('Authorization', ALICE)
        .send({});
      const job = res.body.items?.find((o: any) => o.kind === 'Job');
      if (
        job?.manifest.spec.template.spec.containers[0].args.includes(
          `--weight-format=${format}`,
        )
      )
        return;
      await new Promise(resolve => setImmediate(resolve));
    }
  };

  it('a dry run says the Job would be replaced; the deploy deletes it (Background) and creates it again, saying so in the history', async () => {
    expect((await deploy()).status).toBe(200);
    const firstUid = (await liveJob()).metadata.uid;
    await setWeightFormat('int8');

    const dry = await deploy({ dryRun: true });
    expect(dry.status).toBe(200);
    const wouldBe = dry.body.objects.find((o: any) => o.kind === 'Job');
    expect(wouldBe).toMatchObject({
      action: 'replaced',
      message: expect.stringMatching(
        /^spec\.template cannot be changed on a live object \(field is immutable\): deleted \(propagationPolicy Background\)/,
      ),
    });
    expect(wouldBe.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: expect.stringContaining('.args'),
        }),
      ]),
    );
    expect(await jobArgs()).toContain('--weight-format=int4');

    ctx.kube.resetRequests();
    const res = await deploy();
    expect(res.status).toBe(200);
    expect(res.body.objects.map((o: any) => [o.kind, o.action])).toEqual([
      ['ClusterServingRuntime', 'exists'],
      ['PersistentVolumeClaim', 'exists'],
      ['Job', 'replaced'],
      ['InferenceService', 'unchanged'],
      ['Backend', 'unchanged'],
      ['AIServiceBackend', 'unchanged'],
      ['AIGatewayRoute', 'unchanged'],
    ]);
    expect(await jobArgs()).toContain('--weight-format=int8');
    expect((await liveJob()).metadata.uid).not.toBe(firstUid);
    expect(
      ctx.kube.requests
        .filter(r => r.method === 'DELETE')
        .map(r => [r.path, r.query.propagationPolicy]),
    ).toEqual([
      [`/apis/batch/v1/namespaces/models/jobs/${JOB.name}`, 'Background'],
    ]);

    const history = await api()
      .get(`/api/model-manager/models/${MODEL}/deployments`)
      .set('Authorization', ALICE);
    const row = history.body.items.find(
      (r: any) => r.revision === res.body.revision,
    );
    expect(row.results.find((o: any) => o.kind === 'Job')).toMatchObject({
      action: 'replaced',
      message: expect.stringContaining('spec.template'),
    });

    // Deployed again as it is: nothing to replace.
    const again = await deploy();
    expect(again.body.objects.find((o: any) => o.kind === 'Job').action).toBe(
      'unchanged',
    );
  });
});
