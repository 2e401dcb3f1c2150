/*
 * The model-manager CLI's portal commands against a running backend (the real plugin over HTTP,
 * deploying to the Kubernetes API test server): every change passes the portal's sign-in,
 * permission check, audit and history.
 */
import net from 'node:net';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import { portalCli } from '../__testUtils__/portalCli';
import { useModelManager } from '../__testUtils__/testBackend';

describe('model-manager CLI through the portal', () => {
  const ctx = useModelManager();
  const run = portalCli(() => `http://localhost:${ctx.server.port()}`);
  const target = ['--cluster', 'local', '--namespace', 'models'];

  it('diff exits 1 while a deploy would change something, 0 once in sync', async () => {
    const before = await run(['diff', 'bge-m3', ...target]);
    expect(before).toMatchObject({
      code: 1,
      stdout: 'LLMInferenceService bge-m3: would be created\n',
    });
    const deployed = await run([
      'deploy',
      'bge-m3',
      ...target,
      '--env',
      'EXTRA=1',
    ]);
    expect(deployed.code).toBe(0);
    // The preflight checks first (preflightCli.test.ts), then what the deploy did.
    expect(deployed.stdout).toMatch(
      /^preflight:\n(.+\n)+LLMInferenceService models\/bge-m3: created\nrevision 1 \(deploy\)\n$/,
    );
    expect(
      await run(['diff', 'bge-m3', ...target, '--env', 'EXTRA=1']),
    ).toMatchObject({
      code: 0,
      stdout: 'LLMInferenceService bge-m3: in sync\n',
    });
    const changed = await run([
      'diff',
      'bge-m3',
      ...target,
      '--server-version',
      '0.19.1',
    ]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(
      /\.spec\.template\.containers\[name=main\]\.image: "docker\.io\/vllm\/vllm-openai-cpu:v0\.24\.0" -> "docker\.io\/vllm\/vllm-openai-cpu:v0\.19\.1"/,
    );
    // Recorded as alice's, audited.
    expect(
      ctx.events
        .filter(e => e.eventId === 'model-deploy')
        .map(e => [e.meta.actor, e.outcome]),
    ).toEqual([['user:default/alice', 'success']]);
  });

  it('fleet and rollout-plan read what runs; --json for pipelines', async () => {
    const fleet = await run(['fleet', '--runtime', 'vllm']);
    expect(fleet.code).toBe(0);
    expect(fleet.stdout.split('\n')[0]).toMatch(
      /^TARGET\s+RUNTIME\s+LIVE\s+STATE\s+SYNC\s+HELD\s+REVISION$/,
    );
    expect(fleet.stdout).toMatch(
      /^bge-m3@local\/models\s+vllm\s+0\.24\.0\s+NotReady \(waiting for KServe\)\s+differs: request-pin\s+-\s+1$/m,
    );
    const json = JSON.parse((await run(['fleet', '--json'])).stdout);
    expect(json.items.map((t: any) => t.model)).toEqual(['bge-m3']);
    const plan = await run([
      'rollout-plan',
      '--runtime',
      'vllm',
      '--version',
      '0.19.1',
    ]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(
      /^1 target\(s\) would move, 0 stay\nmove bge-m3@local\/models 0\.24\.0 -> 0\.19\.1: .*\.spec\.template\.containers\[name=main\]\.image/,
    );
    const status = (await run(['status', 'bge-m3'])).stdout;
    expect(status).toMatch(/cluster: local/);
    // Not Ready: the diagnosis in words after the YAML.
    expect(status).toMatch(
      /^why not ready on local\/models: no pods of LLMInferenceService\/bge-m3 on local\/models; KServe has not created them \(yet\)$/m,
    );
  });

  it('a held target: status names the hold and each difference, fleet shows it held, rollout-plan moves it only with --include-held', async () => {
    await run([
      'deploy',
      'bge-m3',
      ...target,
      '--server-version',
      '0.19.1',
      '--force',
    ]);
    const status = (await run(['status', 'bge-m3'])).stdout;
    expect(status).toMatch(
      /^# local\/models: held at 0\.19\.1 by request of .* \(revision \d+\); models\.yaml default 0\.24\.0; \d+ differences? from what a new deploy would apply \(request-pin: \d+\)$/m,
    );
    expect(status).toMatch(/^# {3}what runs: 0\.19\.1 /m);
    expect(status).toMatch(/^# {3}what a new deploy would apply: 0\.24\.0 /m);
    expect(status).toMatch(
      /^# {3}request-pin LLMInferenceService bge-m3 \.spec\.template\.containers\[name=main\]\.image: /m,
    );
    expect((await run(['fleet'])).stdout).toMatch(
      /^bge-m3@local\/models\s+vllm\s+0\.19\.1\s+NotReady \(waiting for KServe\)\s+differs: request-pin\s+0\.19\.1 \(request\)\s+\d+$/m,
    );
    const held = await run(['rollout-plan', '--runtime', 'vllm']);
    expect(held.stdout).toMatch(
      /^stay bge-m3@local\/models: held at 0\.19\.1 by request .*; plan with includeHeld to move it$/m,
    );
    const moved = await run([
      'rollout-plan',
      '--runtime',
      'vllm',
      '--include-held',
    ]);
    expect(moved.stdout).toMatch(
      /^move bge-m3@local\/models 0\.19\.1 -> 0\.24\.0: .* \(releases: held at 0\.19\.1 by request/m,
    );
  });

  it('undeploy removes it', async () => {
    const res = await run(['undeploy', 'bge-m3', ...target]);
    expect(res).toMatchObject({
      code: 0,
      stdout:
        'LLMInferenceService models/bge-m3: deleted\nrevision 3 (undeploy)\n',
    });
  });

  it('clear errors: no portal, a refused token, an unknown model or cluster, a portal that is down', async () => {
    expect(await run(['fleet'], { MODEL_MANAGER_PORTAL: '' })).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(
        /pass --portal URL \(or set MODEL_MANAGER_PORTAL\)/,
      ),
    });
    expect(
      await run(['fleet'], { MODEL_MANAGER_TOKEN: 'not-a-token' }),
    ).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /the portal refused the request \(401 .*\): the token is not valid; pass a Backstage token with --token or MODEL_MANAGER_TOKEN/,
      ),
    });
    expect(await run(['status', 'nope'])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/404 unknown model 'nope'/),
    });
    expect(
      await run([
        'deploy',
        'bge-m3',
        '--cluster',
        'mars',
        '--namespace',
        'models',
      ]),
    ).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /400 unknown cluster 'mars'; clusters: local/,
      ),
    });
    expect(await run(['deploy', 'bge-m3', '--cluster', 'local'])).toMatchObject(
      {
        code: 2,
        stderr: expect.stringMatching(/--cluster and --namespace are required/),
      },
    );
    // A port nothing listens on: taken, then given back.
    const closed = net.createServer();
    await new Promise<void>(resolve => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise(resolve => closed.close(resolve));
    expect(
      await run(['fleet'], {
        MODEL_MANAGER_PORTAL: `http://127.0.0.1:${port}`,
      }),
    ).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        new RegExp(
          `cannot reach the portal at http://127\\.0\\.0\\.1:${port}/api/model-manager: ECONNREFUSED; is it running`,
        ),
      ),
    });
  });
});

describe('model-manager CLI through the portal, as a user without the deploy permission', () => {
  const ctx = useModelManager({ permission: AuthorizeResult.DENY });
  const run = portalCli(() => `http://localhost:${ctx.server.port()}`);

  it('deploy is refused with 403 naming the permission; nothing reaches the cluster', async () => {
    ctx.kube.resetRequests();
    const res = await run([
      'deploy',
      'bge-m3',
      '--cluster',
      'local',
      '--namespace',
      'models',
    ]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(
      /403 user:default\/alice may not model-manager\.model\.deploy model bge-m3 \(component:default\/bge-m3\): the permission policy denied it/,
    );
    expect(ctx.kube.requests.filter(r => r.method === 'PATCH')).toEqual([]);
  });
});
