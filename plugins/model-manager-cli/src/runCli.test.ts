import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { LAYERS } from '@model-manager/plugin-model-manager-common';
import { parse, parseAllDocuments } from 'yaml';
import { runCli } from './runCli';
import { FIXTURE_CATALOG_DIR } from '@model-manager/plugin-model-manager-common/testUtils';

// The test catalog of the common package (nine models, two runtimes), not the shipped one: adding
// an engine or a model to the repository's models.yaml does not change these tests.
const REPO = FIXTURE_CATALOG_DIR;
const REPO_ROOT = path.resolve(__dirname, '../../..');

async function cli(args: string[], cwd = REPO) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: t => (stdout += t),
    stderr: t => (stderr += t),
    cwd,
  });
  return { code, stdout, stderr };
}

function tempCatalog(mutate: (modelsYaml: string) => string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-cli-'));
  fs.cpSync(path.join(REPO, 'runtimes'), path.join(dir, 'runtimes'), {
    recursive: true,
  });
  fs.writeFileSync(
    path.join(dir, 'models.yaml'),
    mutate(fs.readFileSync(path.join(REPO, 'models.yaml'), 'utf8')),
  );
  return dir;
}

describe('model-manager CLI', () => {
  it('validate: ok for the test catalog', async () => {
    expect(await cli(['validate'])).toEqual({
      code: 0,
      stdout: 'models.yaml: ok (9 models, 2 runtimes)\n',
      stderr: '',
    });
  });

  it('validate: ok for examples/extra-runtime, a third engine added as data only', async () => {
    expect(
      await cli(
        [
          'validate',
          '-f',
          'examples/extra-runtime/models.yaml',
          '--runtimes',
          'examples/extra-runtime/runtimes',
        ],
        REPO_ROOT,
      ),
    ).toEqual({
      code: 0,
      stdout: 'examples/extra-runtime/models.yaml: ok (2 models, 1 runtimes)\n',
      stderr: '',
    });
  });

  it('validate: a profile naming a missing template is refused with its file:line:col', async () => {
    const dir = tempCatalog(t => t);
    const profile = path.join(dir, 'runtimes/vllm/profile.yaml');
    fs.writeFileSync(
      profile,
      fs
        .readFileSync(profile, 'utf8')
        .replace(
          'templates/llm-inference-service.yaml',
          'templates/llm-isvc.yaml',
        ),
    );
    const out = await cli(['validate'], dir);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: .*template templates\/llm-isvc\.yaml does not exist under runtimes\//m,
    );
  });

  it('validate: one line per problem with file:line:col and exit 1', async () => {
    const dir = tempCatalog(t =>
      t.replace(
        '      server_version: "0.19.1"           # pinned',
        '      server_version: "0.9.9"',
      ),
    );
    const { code, stdout, stderr } = await cli(
      ['validate', 'models.yaml'],
      dir,
    );
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^models\.yaml:\d+:7: models\.llama-3-1-8b-instruct\.server\.server_version: unknown server version '0\.9\.9' for runtime vllm; versions: 0\.24\.0 \(default\), 0\.19\.1\. Add it under runtimes\.vllm\.versions or pick one of these\n$/,
    );
  });

  it('validate -f elsewhere: each problem names its file as seen from where the command ran', async () => {
    const dir = tempCatalog(t =>
      t.replace(
        '      server_version: "0.19.1"           # pinned',
        '      server_version: "0.9.9"',
      ),
    );
    const { code, stderr } = await cli(
      ['validate', '-f', path.join(path.basename(dir), 'models.yaml')],
      path.dirname(dir),
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(
      new RegExp(
        `^${path.basename(
          dir,
        )}/models\\.yaml:\\d+:7: models\\.llama-3-1-8b-instruct\\.server\\.server_version: unknown server version`,
      ),
    );
  });

  it('validate with no models.yaml here: says where to run it, or -f', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-cli-'));
    const { code, stderr } = await cli(['validate'], empty);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^models\.yaml: cannot read: ENOENT/);
    expect(stderr).toContain(
      'model-manager validate: run it in the folder that holds models.yaml, or pass -f FILE (--models)',
    );
  });

  it('--portal without a scheme is bad usage that says to add it, not a portal that is down', async () => {
    const { code, stderr } = await cli([
      'status',
      'x',
      '--portal',
      '127.0.0.1:7007',
    ]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      'model-manager status: --portal 127.0.0.1:7007 is not a URL the CLI can call; give it with its scheme, e.g. --portal http://127.0.0.1:7007 (or https://)\n',
    );
  });

  it('resolve --explain shows a Secret reference from models.yaml, and --env-secret one from the request, never a value', async () => {
    const { code, stdout } = await cli([
      'resolve',
      'llama-3-1-8b-instruct',
      '--explain',
      '--env-secret',
      'HF_ENDPOINT=hf-mirror/url',
    ]);
    expect(code).toBe(0);
    const line = (key: string) =>
      stdout.split('\n').find(l => l.startsWith(`${key} `)) ?? '';
    expect(line('env.HF_TOKEN')).toMatch(
      /^env\.HF_TOKEN\s+secret hf-token\/token\s+model\s+models\.yaml:\d+:\d+ models\.llama-3-1-8b-instruct\.server\.env\.HF_TOKEN/,
    );
    expect(line('env.HF_ENDPOINT')).toMatch(
      /secret hf-mirror\/url\s+request\s+<request> env\.HF_ENDPOINT/,
    );
  });

  it.each([
    [['--env', 'HF_TOKEN=hf_SeCrEt0123456789abcdefghijkl'], 'env.HF_TOKEN'],
    [['--env-secret', 'HF_TOKEN=hf-token'], 'expected NAME=secret/key'],
  ])('refuses %j before doing anything, naming the fix', async (args, what) => {
    const { code, stdout, stderr } = await cli([
      'resolve',
      'llama-3-1-8b-instruct',
      ...args,
    ]);
    expect(code).not.toBe(0);
    expect(stderr).toContain(what);
    expect(stderr).toMatch(/--env-secret|NAME=secret\/key/);
    expect(`${stdout}${stderr}`).not.toContain('hf_SeCrEt');
  });

  it('resolve --explain: every value with the layer and file:line that set it', async () => {
    const { code, stdout } = await cli([
      'resolve',
      'llama-3-1-8b-instruct',
      '--explain',
      '--env',
      'EXTRA=1',
      '--arg=--max-model-len=4096',
    ]);
    expect(code).toBe(0);
    const line = (key: string) =>
      stdout.split('\n').find(l => l.startsWith(`${key} `)) ?? '';
    expect(line('version')).toMatch(
      /^version\s+0\.19\.1\s+model\s+models\.yaml:\d+:7 models\.llama-3-1-8b-instruct\.server\.server_version\s+0\.24\.0 \(runtime default, models\.yaml:\d+:5 runtimes\.vllm\.default_version\)$/,
    );
    expect(line('image')).toMatch(
      /docker\.io\/vllm\/vllm-openai-cpu:v0\.19\.1\s+version\s+models\.yaml:\d+:9 runtimes\.vllm\.versions\["0\.19\.1"\]\.image/,
    );
    expect(line('env.VLLM_LOGGING_LEVEL')).toMatch(
      /DEBUG\s+model\s+.*INFO \(runtime env, /,
    );
    expect(line('env.VLLM_CPU_KVCACHE_SPACE')).toMatch(
      /8\s+category\s+models\.yaml:\d+:\d+ runtimes\.vllm\.categories\.llm\.defaults\.kv_cache_gb/,
    );
    expect(line('env.EXTRA')).toMatch(/1\s+request\s+<request> env\.EXTRA/);
    // The request layer is named by LAYERS, as the UI's chip names it.
    const request = LAYERS.find(l => l.id === 'override')!.label;
    expect(line('env.EXTRA').split(/\s{2,}/)[2]).toBe(request);
    expect(line('args --max-model-len')).toMatch(
      /--max-model-len=4096\s+request/,
    );
    expect(line('plumbing.routing')).toMatch(
      /epp\s+plumbing\s+runtimes\/vllm\/values\.yaml:\d+:1 routing/,
    );
  });

  it('resolve --explain: the legend names every layer of LAYERS, lowest precedence first', async () => {
    const { stdout } = await cli([
      'resolve',
      'llama-3-1-8b-instruct',
      '--explain',
    ]);
    const legend = stdout.split('\n\n')[1].trimEnd().split('\n');
    expect(legend[0]).toBe(
      'LAYERS, lowest precedence first (a later layer replaces an earlier one):',
    );
    expect(legend.slice(1).map(l => l.trim().split(/\s{2,}/))).toEqual(
      LAYERS.map(l => [l.label, l.description]),
    );
  });

  it('explains every value of every example model', async () => {
    const models = JSON.parse((await cli(['list', '--json'])).stdout).map(
      (r: any) => r.model,
    );
    expect(models).toHaveLength(9);
    for (const model of models) {
      const { code, stdout } = await cli(['resolve', model, '--explain']);
      expect(code).toBe(0);
      // The table ends at the blank line before the legend.
      const rows = stdout.split('\n\n')[0].split('\n').slice(2);
      expect(rows.length).toBeGreaterThan(5);
      // Every row names a layer (by its label in LAYERS) and a file:line:col location.
      const labels = LAYERS.map(l => l.label.replace(/\s/g, '\\s')).join('|');
      for (const row of rows)
        expect(row).toMatch(new RegExp(`\\s(${labels})\\s+\\S+:\\d+:\\d+ `));
    }
  });

  it('resolve: --server-version on OpenVINO aborts with a clear one-line error', async () => {
    const { code, stderr } = await cli([
      'resolve',
      'bge-small-en-v1-5-ov',
      '--server-version',
      '2026.3',
    ]);
    expect(code).toBe(1);
    expect(stderr).toBe(
      "model-manager: <request>: serverVersion: runtime openvino is flat (it has no versions:), so a server version does not apply; remove --server-version (serverVersion: '2026.3')\n",
    );
  });

  it('resolve: unknown model', async () => {
    const { code, stderr } = await cli(['resolve', 'gpt-5']);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^model-manager: unknown model 'gpt-5'; models in models\.yaml: /,
    );
  });

  it.each([
    ['render', 'bge-small-en-v1-5-ov', '-n', 'Models'],
    ['render', 'bge-small-en-v1-5-ov', '--namespace', 'team_a'],
    ['deploy', 'bge-small-en-v1-5-ov', '--cluster', 'c', '-n', 'ns-'],
    ['fleet', '--namespace', 'ns.sub'],
  ])(
    '%s %s: a namespace that is not a DNS-1123 label exits 2',
    async (...args) => {
      const { code, stdout, stderr } = await cli(args);
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toMatch(
        new RegExp(
          `^model-manager ${args[0]}: --namespace: namespace '.*' is not a DNS-1123 label`,
        ),
      );
    },
  );

  it('resolve --env NAME- removes an inherited variable', async () => {
    const { stdout } = await cli([
      'resolve',
      'qwen2-5-7b-instruct',
      '--env',
      'VLLM_LOGGING_LEVEL-',
    ]);
    expect(parse(stdout).env).not.toHaveProperty('VLLM_LOGGING_LEVEL');
  });

  it('render -o yaml: the manifests, in apply order', async () => {
    const { code, stdout } = await cli([
      'render',
      'phi-3-5-mini-instruct-int4-ov',
      '-n',
      'models',
    ]);
    expect(code).toBe(0);
    const docs = parseAllDocuments(stdout).map(d => d.toJS());
    expect(docs.map(d => d.kind)).toEqual([
      'ClusterServingRuntime',
      'PersistentVolumeClaim',
      'Job',
      'InferenceService',
      'Backend',
      'AIServiceBackend',
      'AIGatewayRoute',
    ]);
    expect(docs[1].metadata.namespace).toBe('models');
  });

  it('render -o yaml: values YAML 1.1 reads as booleans or numbers (kubectl, PyYAML) read back as strings', async () => {
    const { code, stdout } = await cli([
      'render',
      'qwen2-5-7b-instruct',
      '--env',
      'A=yes',
      '--env',
      'B=1_000',
      '--arg=--x=on',
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain('value: "yes"');
    const [doc] = parseAllDocuments(stdout, { version: '1.1' }).map(d =>
      d.toJS(),
    );
    expect(doc.spec.template.containers[0].env).toEqual(
      expect.arrayContaining([
        { name: 'A', value: 'yes' },
        { name: 'B', value: '1_000' },
      ]),
    );
  });

  it('resolve --explain shows a removed env var set again with its removal', async () => {
    const dir = tempCatalog(t =>
      t.replace(
        '        VLLM_LOGGING_LEVEL: DEBUG\n',
        '        VLLM_LOGGING_LEVEL: null\n',
      ),
    );
    const { code, stdout } = await cli(
      [
        'resolve',
        'llama-3-1-8b-instruct',
        '--explain',
        '--env',
        'VLLM_LOGGING_LEVEL=WARNING',
      ],
      dir,
    );
    expect(code).toBe(0);
    const row = stdout
      .split('\n')
      .find(l => l.startsWith('env.VLLM_LOGGING_LEVEL '))!;
    expect(row).toMatch(
      /WARNING\s+request\s+<request> env\.VLLM_LOGGING_LEVEL\s+INFO \(runtime env, models\.yaml:\d+:\d+ runtimes\.vllm\.env\.VLLM_LOGGING_LEVEL\); removed \(model, models\.yaml:\d+:\d+ models\.llama-3-1-8b-instruct\.server\.env\.VLLM_LOGGING_LEVEL\)$/,
    );
  });

  it('render -o json', async () => {
    const { stdout } = await cli([
      'render',
      'qwen2-5-7b-instruct',
      '-o',
      'json',
    ]);
    expect(JSON.parse(stdout)).toMatchObject({
      kind: 'LLMInferenceService',
      metadata: { name: 'qwen2-5-7b-instruct' },
    });
  });

  it('help (the command or -h) prints the usage and exits 0', async () => {
    for (const args of [['help'], ['-h'], ['render', '--help']]) {
      const { code, stdout } = await cli(args);
      expect(code).toBe(0);
      expect(stdout).toContain('Usage:');
    }
  });

  it('bad usage exits 2 with the usage text', async () => {
    const { code, stderr } = await cli(['render']);
    expect(code).toBe(2);
    expect(stderr).toContain('Usage:');
    expect((await cli(['frobnicate'])).code).toBe(2);
    expect((await cli(['resolve', 'x', '--bogus'])).code).toBe(2);
    // A malformed override is bad usage too, before the catalog is read (any model name).
    for (const command of ['resolve', 'render', 'diff']) {
      const malformed = await cli([command, 'x', '--env', 'FOO']);
      expect(malformed).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('--env FOO: expected NAME=value'),
      });
    }
  });

  it.each([
    [
      ['render', 'bge-m3', '--json'],
      'model-manager render: --json does not apply to render (it takes --models, --runtimes, --server-version, --env, --env-secret, --arg, --namespace, --output, --out-dir, --cluster); for JSON, -o json',
    ],
    [
      ['resolve', 'bge-m3', '-o', 'json'],
      'model-manager resolve: --output does not apply to resolve (it takes --models, --runtimes, --server-version, --env, --env-secret, --arg, --explain, --json); for JSON, --json',
    ],
    [
      ['list', '--explain'],
      'model-manager list: --explain does not apply to list (it takes --models, --runtimes, --json)',
    ],
    [
      ['resolve', 'bge-m3', 'extra'],
      "model-manager resolve: unexpected 'extra': resolve takes one model",
    ],
    [
      ['validate', 'models.yaml', '-f', 'other.yaml'],
      'model-manager validate: give the file once: as an argument or with -f, not both',
    ],
    [
      ['render', 'bge-m3', '--cluster', 'local'],
      'model-manager render: --cluster applies to render with --out-dir (the GitOps layout), not to printed manifests',
    ],
  ])(
    'an option the command does not read, or an extra argument, is bad usage: %j',
    async (args, message) => {
      expect(await cli(args)).toEqual({
        code: 2,
        stdout: '',
        stderr: `${message}\n`,
      });
    },
  );

  it('runs as a real process through the bin, as npx model-manager does', async () => {
    const bin = path.resolve(__dirname, '../bin/model-manager');
    const run = promisify(execFile);
    const ok = await run(process.execPath, [bin, 'validate'], { cwd: REPO });
    expect(ok.stdout).toBe('models.yaml: ok (9 models, 2 runtimes)\n');
    await expect(
      run(process.execPath, [bin, 'resolve', 'nope'], { cwd: REPO }),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^model-manager: unknown model 'nope'/),
    });
  }, 60_000);

  it('a reader that goes away (| head, | true) is not a crash', async () => {
    const bin = path.resolve(__dirname, '../bin/model-manager');
    const { stderr } = await promisify(execFile)(
      'bash',
      [
        '-c',
        `"${process.execPath}" "${bin}" list | true; exit \${PIPESTATUS[0]}`,
      ],
      { cwd: REPO },
    );
    expect(stderr).toBe('');
  }, 60_000);
});
