/*
 * The portal backend (this package's src/index.ts, every plugin) killed with SIGKILL while a
 * "Deploy model" scaffolder task runs, then started again on the same database: the scaffolder
 * resumes the task (scaffolder.taskRecovery in app-config.yaml) and model-manager:deploy's
 * checkpoint keeps it from applying a second time; the same for a "Roll out runtime version" task
 * killed while its canary waits for Ready (one checkpoint per target). The cluster is the
 * Kubernetes API test double.
 */
import {
  ADMIN_TOKEN,
  KubeApiTestServer,
} from '@model-manager/kube-api-test-server';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

jest.setTimeout(300_000);

const backendDir = path.resolve(__dirname, '..');
const root = path.resolve(backendDir, '../..');
const MODEL = 'qwen2-5-7b-instruct';
const LLM_ISVC_PATH = `/apis/serving.kserve.io/v1alpha2/namespaces/models/llminferenceservices/${MODEL}`;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise(resolve => server.close(resolve));
  return port;
}

/** Thrown by a check to stop waiting at once. */
class Fatal extends Error {}

/** Polls `check` until it returns a value (each poll is a request; there is no fixed wait). */
async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
  backend?: { exited: () => string | undefined },
): Promise<T> {
  const deadline = Date.now() + 240_000;
  let last: unknown;
  for (;;) {
    const exited = backend?.exited();
    if (exited)
      throw new Error(
        `the backend exited while waiting for ${what}: ${exited}`,
      );
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (e) {
      if (e instanceof Fatal) throw e;
      last = e;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what}${last ? `: ${last}` : ''}`,
      );
    await new Promise(resolve => setTimeout(resolve, 250));
  }
}

describe('a backend restart during a Deploy model task', () => {
  let kube: KubeApiTestServer;
  let dir: string;
  let base: string;
  let child: ChildProcess | undefined;
  let output = '';

  /** Starts src/index.ts as the portal runs it in development, on a database directory that outlives it. */
  function startBackend() {
    output = '';
    const proc = spawn(
      process.execPath,
      [
        '-r',
        require.resolve('@backstage/cli/config/nodeTransform.cjs'),
        'src/index.ts',
        '--config',
        path.join(root, 'app-config.yaml'),
        '--config',
        path.join(dir, 'app-config.test.yaml'),
      ],
      {
        cwd: backendDir,
        env: { ...process.env, NODE_ENV: 'development' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    proc.stdout!.on('data', keep);
    proc.stderr!.on('data', keep);
    child = proc;
    return {
      exited: () =>
        proc.exitCode !== null || proc.signalCode !== null
          ? `${proc.exitCode ?? proc.signalCode}\n${output}`
          : undefined,
    };
  }

  /** Kills the backend as a crash or an evicted pod would; how it ended. */
  async function kill(): Promise<string | number | null> {
    const proc = child!;
    child = undefined;
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise(resolve => proc.once('exit', resolve));
      proc.kill('SIGKILL');
      await exited;
    }
    return proc.signalCode ?? proc.exitCode;
  }

  async function json(url: string, token: string) {
    const res = await fetch(`${base}${url}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    return res.json();
  }

  /** Waits until the backend answers and the Deploy model template is in its catalog; a guest token. */
  async function ready(backend: { exited: () => string | undefined }) {
    const token = await until(
      'the guest sign-in',
      async () => {
        const res = await fetch(`${base}/api/auth/guest/refresh`);
        return res.ok
          ? ((await res.json()).backstageIdentity.token as string)
          : undefined;
      },
      backend,
    );
    await until(
      'the Deploy model template in the catalog',
      () =>
        json(
          '/api/catalog/entities/by-name/template/default/deploy-model',
          token,
        ),
      backend,
    );
    return token;
  }

  const logLines = async (taskId: string, token: string): Promise<string[]> =>
    (await json(`/api/scaffolder/v2/tasks/${taskId}/events`, token))
      .filter((e: any) => e.type === 'log')
      // Action log lines come as `info: message`, coloured.
      .map((e: any) =>
        String(e.body.message)
          // eslint-disable-next-line no-control-regex -- strips ANSI colour codes
          .replace(/\u001b\[\d+m/g, '')
          .replace(/^(info|warn|error): /, ''),
      );

  /** Whether the task's log has at least `count` lines matching; fails at once if the task ended. */
  async function logged(
    taskId: string,
    token: string,
    match: (line: string) => boolean,
    count: number,
  ) {
    const lines = await logLines(taskId, token);
    if (lines.filter(match).length >= count) return true;
    const { status } = await json(`/api/scaffolder/v2/tasks/${taskId}`, token);
    if (status === 'completed' || status === 'failed' || status === 'cancelled')
      throw new Fatal(
        `the task ended (${status}) instead:\n${lines.join('\n')}`,
      );
    return undefined;
  }

  /** True once the task's log has a line matching `then` after one matching `first`. */
  async function loggedAfter(
    taskId: string,
    token: string,
    first: (line: string) => boolean,
    then: (line: string) => boolean,
  ) {
    const lines = await logLines(taskId, token);
    const at = lines.findIndex(first);
    if (at >= 0 && lines.slice(at + 1).some(then)) return true;
    return logged(taskId, token, () => false, 1);
  }

  /** Server-side applies (not dry runs) of the model's LLMInferenceService. */
  const applies = () =>
    kube.requests.filter(
      r => r.method === 'PATCH' && r.path === LLM_ISVC_PATH && !r.query.dryRun,
    ).length;

  beforeAll(async () => {
    kube = await KubeApiTestServer.start({ namespaces: ['default', 'models'] });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-task-recovery-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    fs.writeFileSync(
      path.join(dir, 'app-config.test.yaml'),
      [
        `app: { baseUrl: '${base}' }`,
        'backend:',
        `  baseUrl: '${base}'`,
        `  listen: { port: ${port}, host: 127.0.0.1 }`,
        // Files, so that the task and its checkpoints survive the kill.
        `  database: { client: better-sqlite3, connection: { directory: '${dir}/db' } }`,
        'kubernetes:',
        '  clusterLocatorMethods:',
        '    - type: config',
        '      clusters:',
        `        - { name: local, url: '${kube.url}', authProvider: serviceAccount, serviceAccountToken: ${ADMIN_TOKEN}, skipTLSVerify: true, skipMetricsLookup: true }`,
        'modelManager: { watch: false }',
        // Recover a task whose heartbeat (every second) stopped 5 s ago; the scaffolder looks
        // for such tasks every 10 s.
        'scaffolder: { taskRecovery: { enabled: true, staleTimeout: { seconds: 5 } } }',
        '',
      ].join('\n'),
    );
  }, 120_000);

  afterAll(async () => {
    if (child) await kill();
    await kube?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('resumes the task, which waits for Ready again without applying a second time', async () => {
    let backend = startBackend();
    let token = await ready(backend);

    const created = await fetch(`${base}/api/scaffolder/v2/tasks`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({
        templateRef: 'template:default/deploy-model',
        values: {
          model: `component:default/${MODEL}`,
          cluster: 'local',
          namespace: 'models',
          dryRun: false,
          force: false,
          waitForReady: true,
        },
      }),
    });
    expect(created.status).toBe(201);
    const { id } = await created.json();

    // Applied, checkpointed, and now waiting for KServe (which never reports Ready here).
    const waiting = (line: string) =>
      line.startsWith(
        `waiting for model ${MODEL} to become Ready on cluster local, namespace models`,
      );
    const resumed = (line: string) => line.startsWith('resumed task: ');
    await until(
      'the task to wait for Ready',
      () => logged(id, token, waiting, 1),
      backend,
    );
    expect(applies()).toBe(1);
    expect(
      kube.store.get({
        apiVersion: 'serving.kserve.io/v1alpha2',
        kind: 'LLMInferenceService',
        namespace: 'models',
        name: MODEL,
      }),
    ).toBeDefined();

    expect(await kill()).toBe('SIGKILL');

    backend = startBackend();
    token = await ready(backend);
    // The resumed task re-runs the deploy step: its checkpoint answers, and it waits again. (The
    // template starts over, EXPERIMENTAL_recovery startOver: once the task is recovered, its log
    // is the new run's, which says it resumed.)
    await until(
      'the resumed task to wait for Ready',
      () => loggedAfter(id, token, resumed, waiting),
      backend,
    );
    expect(applies()).toBe(1);
    expect(await logLines(id, token)).toContain(
      'resumed task: revision 1 was applied before the task was interrupted; not applying it again',
    );

    // KServe reports Ready: the task completes.
    kube.store.setStatus(
      {
        apiVersion: 'serving.kserve.io/v1alpha2',
        kind: 'LLMInferenceService',
        namespace: 'models',
        name: MODEL,
      },
      {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            lastTransitionTime: '2026-11-30T12:00:00Z',
          },
        ],
        url: `http://${MODEL}.models.example.com`,
      },
      { fieldManager: 'kserve-controller' },
    );
    const task = await until(
      'the task to end',
      async () => {
        const t = await json(`/api/scaffolder/v2/tasks/${id}`, token);
        return t.status === 'completed' || t.status === 'failed'
          ? t
          : undefined;
      },
      backend,
    );
    const log = await logLines(id, token);
    expect({ status: task.status, log }).toMatchObject({ status: 'completed' });
    expect(log).toContain(
      `model ${MODEL} is Ready on cluster local, namespace models: http://${MODEL}.models.example.com`,
    );

    // Applied once in all; one deploy in the history, by the guest who started the task.
    expect(applies()).toBe(1);
    const history = await json(
      `/api/model-manager/models/${MODEL}/deployments`,
      token,
    );
    expect(
      history.items.map((r: any) => [r.action, r.outcome, r.actor]),
    ).toEqual([['deploy', 'succeeded', 'user:default/guest']]);
  });

  it('a rollout killed while its canary waits resumes: no target is applied twice', async () => {
    const ROLLED = ['bge-m3', 'bge-reranker-v2-m3', 'qwen2-5-vl-7b-instruct'];
    const path_ = (model: string) =>
      `/apis/serving.kserve.io/v1alpha2/namespaces/default/llminferenceservices/${model}`;
    const appliesOf = (model: string) =>
      kube.requests.filter(
        r => r.method === 'PATCH' && r.path === path_(model) && !r.query.dryRun,
      ).length;
    // The backend of the test before is still up: start afresh on the same database.
    if (child) await kill();
    let backend = startBackend();
    let token = await ready(backend);
    await until(
      'the rollout template in the catalog',
      () =>
        json(
          '/api/catalog/entities/by-name/template/default/rollout-runtime-version',
          token,
        ),
      backend,
    );
    for (const model of ROLLED) {
      const res = await fetch(
        `${base}/api/model-manager/models/${model}/deploy`,
        {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${token}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({ cluster: 'local', namespace: 'default' }),
        },
      );
      expect(res.status).toBe(200);
    }
    const created = await fetch(`${base}/api/scaffolder/v2/tasks`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({
        templateRef: 'template:default/rollout-runtime-version',
        values: {
          runtime: 'vllm',
          version: '0.19.1',
          namespace: 'default',
          canary: 1,
          concurrency: 2,
          maxFailures: 0,
          force: false,
          dryRun: false,
        },
      }),
    });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    // The canary (first in the plan) is applied and waits for KServe, which never reports Ready here.
    const waiting = (line: string) =>
      line.startsWith(
        'waiting for model bge-m3 to become Ready on cluster local, namespace default',
      );
    await until(
      'the canary to wait for Ready',
      () => logged(id, token, waiting, 1),
      backend,
    );
    expect(ROLLED.map(appliesOf)).toEqual([2, 1, 1]);

    expect(await kill()).toBe('SIGKILL');
    backend = startBackend();
    token = await ready(backend);
    // Resumed: the template runs one step per phase; the plan and the canary's apply are finished
    // steps, kept with their outputs, and only the wait for Ready runs again.
    await until(
      'the resumed canary to wait for Ready',
      () =>
        loggedAfter(
          id,
          token,
          line => line.startsWith('Skipping step canary because'),
          waiting,
        ),
      backend,
    );
    expect(ROLLED.map(appliesOf)).toEqual([2, 1, 1]);
    expect(await logLines(id, token)).toEqual(
      expect.arrayContaining([
        'Skipping step plan because it was already completed in a previous run',
        'Skipping step canary because it was already completed in a previous run',
      ]),
    );

    kube.store.setStatus(
      {
        apiVersion: 'serving.kserve.io/v1alpha2',
        kind: 'LLMInferenceService',
        namespace: 'default',
        name: 'bge-m3',
      },
      {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            lastTransitionTime: '2026-12-01T12:00:00Z',
          },
        ],
      },
      { fieldManager: 'kserve-controller' },
    );
    const task = await until(
      'the rollout to end',
      async () => {
        const t = await json(`/api/scaffolder/v2/tasks/${id}`, token);
        return t.status === 'completed' || t.status === 'failed'
          ? t
          : undefined;
      },
      backend,
    );
    const log = await logLines(id, token);
    expect({ status: task.status, log }).toMatchObject({ status: 'completed' });
    expect(log).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^rollout done: moved 3 of 3 target\(s\)$/),
      ]),
    );
    // Each target applied once by the rollout (after its first deploy), recorded as a rollout by the guest.
    expect(ROLLED.map(appliesOf)).toEqual([2, 2, 2]);
    for (const model of ROLLED) {
      const history = await json(
        `/api/model-manager/models/${model}/deployments`,
        token,
      );
      expect(
        history.items.map((r: any) => [
          r.revision,
          r.action,
          r.outcome,
          r.actor,
        ]),
      ).toEqual([
        [2, 'rollout', 'succeeded', 'user:default/guest'],
        [1, 'deploy', 'succeeded', 'user:default/guest'],
      ]);
    }
  });
});
