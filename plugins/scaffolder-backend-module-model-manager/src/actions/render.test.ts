import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mockCredentials } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  GITOPS_RECREATE_ANNOTATIONS,
  GITOPS_SHARED_OBJECT_ANNOTATIONS,
} from '@model-manager/plugin-model-manager-common';
import yaml from 'yaml';
import {
  ALICE,
  actionContext,
  exampleInput,
  startActionBackend,
} from '../__testUtils__/actionTestContext';
import { runCli } from '@model-manager/cli';
import { createRenderModelAction } from './render';
import { examples } from './render.examples';
import { FIXTURE_CATALOG_DIR } from '@model-manager/plugin-model-manager-common/testUtils';

/** The repository root: its models.yaml is the one the test backend serves. */

type Backend = Awaited<ReturnType<typeof startActionBackend>>;
type RenderInput = Parameters<
  ReturnType<typeof createRenderModelAction>['handler']
>[0]['input'];

/** Every file under dir, relative, `/`-separated, sorted. */
function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter(f => fs.statSync(path.join(dir, f)).isFile())
    .map(f => f.split(path.sep).join('/'))
    .sort();
}

describe('model-manager:render', () => {
  let mm: Backend;
  let action: ReturnType<typeof createRenderModelAction>;
  beforeAll(async () => {
    mm = await startActionBackend({
      modelManagerConfig: {
        watch: false,
        kubernetes: {
          retryBaseDelayMs: 1,
          requestTimeoutMs: 5000,
          impersonateUser: false,
          clusters: { local: { namespaces: ['default', 'models'] } },
        },
      },
    });
    action = createRenderModelAction({
      discovery: mm.discovery,
      auth: mm.auth,
    });
  }, 120_000);
  afterAll(() => mm.stop(), 120_000);
  beforeEach(() => mm.kube.resetRequests());
  // Rendering never reaches a cluster.
  afterEach(() => expect(mm.kube.requestCount).toBe(0));

  /** What the backend renders for the input, as alice: the source of truth the files must match. */
  async function backendRender(input: RenderInput, model: string) {
    const res = await fetch(
      `http://localhost:${mm.server.port()}/api/model-manager/models/${model}/render`,
      {
        method: 'POST',
        headers: {
          Authorization: mockCredentials.user.header(ALICE),
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({
          namespace: input.namespace,
          serverVersion: input.serverVersion,
          env: input.env,
          args: input.args,
        }),
      },
    );
    expect(res.status).toBe(200);
    return (await res.json()).items as Array<{
      kind: string;
      name: string;
      applyPolicy: string;
      manifest: any;
    }>;
  }

  it.each(examples)(
    'example: $description',
    async example => {
      const input = exampleInput(example) as RenderInput;
      const model = input.model.replace(/^component:default\//, '');
      const run = actionContext(input);
      await action.handler(run.ctx);

      const dir = [input.targetPath, 'local', 'models', model]
        .filter(Boolean)
        .join('/');
      const objects = await backendRender(input, model);
      const names = objects.map(o => `${o.kind.toLowerCase()}-${o.name}.yaml`);
      // The workspace holds the model's folder and nothing else.
      expect(listFiles(run.ctx.workspacePath)).toEqual(
        [...names, 'kustomization.yaml'].map(n => `${dir}/${n}`).sort(),
      );
      const read = (name: string) =>
        fs.readFileSync(path.join(run.ctx.workspacePath, dir, name), 'utf8');
      expect(yaml.parse(read('kustomization.yaml'))).toEqual({
        apiVersion: 'kustomize.config.k8s.io/v1beta1',
        kind: 'Kustomization',
        resources: names,
      });
      for (const [i, o] of objects.entries()) {
        const expected = JSON.parse(JSON.stringify(o.manifest));
        if (o.applyPolicy === 'create-if-absent')
          expected.metadata.annotations = {
            ...expected.metadata.annotations,
            ...GITOPS_SHARED_OBJECT_ANNOTATIONS,
          };
        if (o.applyPolicy === 'recreate-when-immutable')
          expected.metadata.annotations = {
            ...expected.metadata.annotations,
            ...GITOPS_RECREATE_ANNOTATIONS,
          };
        expect(yaml.parse(read(names[i]), { version: '1.1' })).toEqual(
          expected,
        );
      }
      expect(run.outputs()).toEqual({
        path: dir,
        files: [...names, 'kustomization.yaml'].map(n => `${dir}/${n}`),
        modelEntityRef: `component:default/${model}`,
      });
      expect(run.lines()).toEqual([
        `Wrote ${
          objects.length
        } objects of model ${model} for cluster local, namespace models to ${dir}/: ${[
          ...names,
          'kustomization.yaml',
        ].join(', ')}`,
      ]);
    },
    120_000,
  );

  it('writes the overrides into the model server (serverVersion, env, args)', async () => {
    const run = actionContext<RenderInput>({
      model: 'llama-3-1-8b-instruct',
      cluster: 'local',
      namespace: 'models',
      serverVersion: '0.24.0',
      env: { EXTRA: 'yes' },
      args: ['--max-model-len=4096'],
    });
    await action.handler(run.ctx);
    const text = fs.readFileSync(
      path.join(
        run.ctx.workspacePath,
        'local/models/llama-3-1-8b-instruct/llminferenceservice-llama-3-1-8b-instruct.yaml',
      ),
      'utf8',
    );
    // "yes" stays a string for YAML 1.1 readers (kubectl).
    expect(text).toContain('value: "yes"');
    const [container] = yaml.parse(text, { version: '1.1' }).spec.template
      .containers;
    expect(container.env).toContainEqual({ name: 'EXTRA', value: 'yes' });
    expect(container.args).toContain('--max-model-len=4096');
    expect(container.image).toBe('docker.io/vllm/vllm-openai-cpu:v0.24.0');
  });

  it('writes the same bytes as the CLI (model-manager render --out-dir) for the same model and overrides', async () => {
    const run = actionContext<RenderInput>({
      model: 'component:default/qwen3-30b-a3b',
      cluster: 'local',
      namespace: 'models',
      env: { EXTRA: 'off' },
      args: ['--max-model-len=4096'],
    });
    await action.handler(run.ctx);
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-render-cli-'));
    try {
      const code = await runCli(
        [
          'render',
          'qwen3-30b-a3b',
          '--out-dir',
          out,
          '--cluster',
          'local',
          '--namespace',
          'models',
          '--env',
          'EXTRA=off',
          '--arg=--max-model-len=4096',
        ],
        { stdout: () => {}, stderr: () => {}, cwd: FIXTURE_CATALOG_DIR },
      );
      expect(code).toBe(0);
      const contents = (root: string) =>
        Object.fromEntries(
          listFiles(root).map(f => [
            f,
            fs.readFileSync(path.join(root, f), 'utf8'),
          ]),
        );
      expect(contents(run.ctx.workspacePath)).toEqual(contents(out));
      expect(listFiles(out)).toHaveLength(2);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('writes the files in a scaffolder dry run too (nothing is applied either way)', async () => {
    const run = actionContext<RenderInput>(
      { model: 'bge-m3', cluster: 'local', namespace: 'models' },
      { isDryRun: true },
    );
    await action.handler(run.ctx);
    expect(listFiles(run.ctx.workspacePath)).toEqual([
      'local/models/bge-m3/kustomization.yaml',
      'local/models/bge-m3/llminferenceservice-bge-m3.yaml',
    ]);
  });

  it('replaces what the model folder held (a file of an object it no longer has goes)', async () => {
    const run = actionContext<RenderInput>({
      model: 'bge-m3',
      cluster: 'local',
      namespace: 'models',
    });
    const stale = path.join(
      run.ctx.workspacePath,
      'local/models/bge-m3/job-old.yaml',
    );
    const other = path.join(
      run.ctx.workspacePath,
      'local/models/other/keep.yaml',
    );
    for (const f of [stale, other]) {
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, 'kind: Job\n');
    }
    await action.handler(run.ctx);
    expect(listFiles(run.ctx.workspacePath)).toEqual([
      'local/models/bge-m3/kustomization.yaml',
      'local/models/bge-m3/llminferenceservice-bge-m3.yaml',
      'local/models/other/keep.yaml',
    ]);
  });

  it.each([
    [
      'a namespace the cluster does not allow (403 from the backend)',
      { namespace: 'kube-system' },
      "namespace 'kube-system' is not open to model deployments on cluster local; allowed: default, models (modelManager.kubernetes.clusters.local.namespaces)",
    ],
    [
      'an unknown model',
      { model: 'no-such-model' },
      /unknown model 'no-such-model'/,
    ],
    [
      'a namespace that is not a DNS label (checked before any request)',
      { namespace: 'Models' },
      /^namespace: namespace 'Models' is not a DNS-1123 label/,
    ],
    [
      'a targetPath leaving the workspace',
      { targetPath: '../elsewhere' },
      /^targetPath: '\.\.\/elsewhere' must stay inside the repository/,
    ],
  ])('refuses %s and writes nothing', async (_what, bad, message) => {
    const run = actionContext<RenderInput>({
      model: 'bge-m3',
      cluster: 'local',
      namespace: 'models',
      ...bad,
    });
    await expect(action.handler(run.ctx)).rejects.toThrow(message);
    expect(listFiles(run.ctx.workspacePath)).toEqual([]);
  });
});

describe('model-manager:render for a user without model-manager.model.render', () => {
  it('fails with the backend message naming the user, audited; writes nothing', async () => {
    const mm = await startActionBackend({ permission: AuthorizeResult.DENY });
    try {
      mm.kube.resetRequests();
      const action = createRenderModelAction({
        discovery: mm.discovery,
        auth: mm.auth,
      });
      const run = actionContext<RenderInput>({
        model: 'bge-m3',
        cluster: 'local',
        namespace: 'models',
      });
      await expect(action.handler(run.ctx)).rejects.toThrow(
        /^user:default\/alice may not model-manager\.model\.render model bge-m3 \(component:default\/bge-m3\): the permission policy denied it$/,
      );
      expect(listFiles(run.ctx.workspacePath)).toEqual([]);
      expect(mm.events).toEqual([
        expect.objectContaining({
          eventId: 'model-render',
          outcome: 'fail',
          meta: expect.objectContaining({ actor: ALICE, model: 'bge-m3' }),
        }),
      ]);
      expect(mm.kube.requestCount).toBe(0);
    } finally {
      await mm.stop();
    }
  });
});
