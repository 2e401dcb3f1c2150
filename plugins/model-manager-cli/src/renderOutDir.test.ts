import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { runCli } from './runCli';
import { FIXTURE_CATALOG_DIR } from '@model-manager/plugin-model-manager-common/testUtils';

// The test catalog of the common package (nine models, two runtimes), not the shipped one: adding
// an engine or a model to the repository's models.yaml does not change these tests.
const REPO = FIXTURE_CATALOG_DIR;

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: t => (stdout += t),
    stderr: t => (stderr += t),
    cwd: REPO,
  });
  return { code, stdout, stderr };
}

/** Every file under dir, relative, `/`-separated, sorted. */
function listFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter(f => fs.statSync(path.join(dir, f)).isFile())
    .map(f => f.split(path.sep).join('/'))
    .sort();
}

describe('model-manager render --out-dir (GitOps layout)', () => {
  let out: string;
  beforeEach(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-cli-gitops-'));
  });
  afterEach(() => fs.rmSync(out, { recursive: true, force: true }));

  it('writes <cluster>/<namespace>/<model>/ with one file per object and a kustomization.yaml, and prints each path', async () => {
    const { code, stdout, stderr } = await cli([
      'render',
      'bge-reranker-base-ov',
      '--out-dir',
      out,
      '--cluster',
      'local',
      '--namespace',
      'models',
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const dir = 'local/models/bge-reranker-base-ov';
    const names = [
      'clusterservingruntime-openvino-runtime.yaml',
      'persistentvolumeclaim-model-manager-weights.yaml',
      'job-bge-reranker-base-ov-download.yaml',
      'inferenceservice-bge-reranker-base-ov.yaml',
      'backend-bge-reranker-base-ov.yaml',
      'aiservicebackend-bge-reranker-base-ov.yaml',
      'aigatewayroute-bge-reranker-base-ov.yaml',
    ];
    expect(listFiles(out)).toEqual(
      [...names, 'kustomization.yaml'].map(n => `${dir}/${n}`).sort(),
    );
    expect(stdout.trimEnd().split('\n')).toEqual(
      [...names, 'kustomization.yaml'].map(n =>
        path.relative(REPO, path.join(out, dir, n)),
      ),
    );
    expect(
      parse(fs.readFileSync(path.join(out, dir, 'kustomization.yaml'), 'utf8')),
    ).toEqual({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: names,
    });
    const pvc = parse(fs.readFileSync(path.join(out, dir, names[1]), 'utf8'));
    expect(pvc.metadata.annotations).toMatchObject({
      'argocd.argoproj.io/sync-options': 'Prune=false,Delete=false',
    });
  });

  it('takes the same overrides as resolve (--server-version, --env, --arg), strings kept safe for YAML 1.1', async () => {
    const { code } = await cli([
      'render',
      'llama-3-1-8b-instruct',
      '--out-dir',
      out,
      '--cluster',
      'edge',
      '--namespace',
      'default',
      '--server-version',
      '0.24.0',
      '--env',
      'EXTRA=on',
      '--env',
      'VLLM_LOGGING_LEVEL-',
      '--arg=--max-model-len=4096',
    ]);
    expect(code).toBe(0);
    const text = fs.readFileSync(
      path.join(
        out,
        'edge/default/llama-3-1-8b-instruct/llminferenceservice-llama-3-1-8b-instruct.yaml',
      ),
      'utf8',
    );
    expect(text).toContain('value: "on"');
    const object = parse(text, { version: '1.1' });
    expect(object.metadata.namespace).toBe('default');
    const [container] = object.spec.template.containers;
    expect(container.image).toBe('docker.io/vllm/vllm-openai-cpu:v0.24.0');
    expect(container.env).toContainEqual({ name: 'EXTRA', value: 'on' });
    expect(container.env.map((e: { name: string }) => e.name)).not.toContain(
      'VLLM_LOGGING_LEVEL',
    );
    expect(container.args).toContain('--max-model-len=4096');
  });

  it('replaces the model folder (a file of an object it no longer has goes) and leaves the rest of DIR alone', async () => {
    const stale = path.join(out, 'local/models/bge-m3/job-old.yaml');
    const other = path.join(out, 'README.md');
    fs.mkdirSync(path.dirname(stale), { recursive: true });
    fs.writeFileSync(stale, 'kind: Job\n');
    fs.writeFileSync(other, '# gitops\n');
    const args = [
      '--out-dir',
      out,
      '--cluster',
      'local',
      '--namespace',
      'models',
    ];
    expect((await cli(['render', 'bge-m3', ...args])).code).toBe(0);
    expect(listFiles(out)).toEqual([
      'README.md',
      'local/models/bge-m3/kustomization.yaml',
      'local/models/bge-m3/llminferenceservice-bge-m3.yaml',
    ]);
  });

  it.each([
    ['without --cluster', ['--namespace', 'models']],
    ['without --namespace', ['--cluster', 'local']],
  ])('exits 2 %s', async (_what, args) => {
    const res = await cli(['render', 'bge-m3', '--out-dir', out, ...args]);
    expect(res).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'model-manager render --out-dir: --cluster and --namespace are required (the layout is <cluster>/<namespace>/<model>/)\n',
    });
    expect(listFiles(out)).toEqual([]);
  });

  it('exits 1 naming the field for a cluster that cannot be a folder, writing nothing', async () => {
    const res = await cli([
      'render',
      'bge-m3',
      '--out-dir',
      out,
      '--cluster',
      '..',
      '--namespace',
      'models',
    ]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /^model-manager: cluster: '\.\.' cannot be a folder name/,
    );
    expect(listFiles(out)).toEqual([]);
  });
});
