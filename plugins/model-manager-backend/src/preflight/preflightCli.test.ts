/** `model-manager preflight` and `deploy` (which prints the checks first) against the real portal. */
import { portalCli } from '../__testUtils__/portalCli';
import { useModelManager } from '../__testUtils__/testBackend';

describe('model-manager preflight (CLI)', () => {
  const ctx = useModelManager();
  const run = portalCli(() => `http://localhost:${ctx.server.port()}`);

  it('prints each check and exits 0 when none fails', async () => {
    const res = await run([
      'preflight',
      'bge-small-en-v1-5-ov',
      '--cluster',
      'local',
      '--namespace',
      'models',
    ]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(
      'PASS    A schedulable node fits the pod: 1 of 1 node(s) have allocatable room',
    );
    expect(res.stdout).toContain(
      "PASS    The gateway's controller accepts the objects the routes use: Envoy Gateway accepts the model's Backend",
    );
    expect(res.stdout.split('\n').filter(l => /^[A-Z]+ /.test(l))).toHaveLength(
      11,
    );
  });

  it('exits 1 on a fail, printing the fix; deploy prints the checks first and is refused', async () => {
    const target = ['--cluster', 'local', '--namespace', 'nowhere'];
    const pre = await run(['preflight', 'qwen2-5-7b-instruct', ...target]);
    expect(pre.code).toBe(1);
    expect(pre.stdout).toMatch(
      /^FAIL {4}The namespace exists: namespace nowhere does not exist on cluster local\n {8}fix: create it \(kubectl create namespace nowhere\)/m,
    );
    const deploy = await run(['deploy', 'qwen2-5-7b-instruct', ...target]);
    expect(deploy.code).toBe(1);
    expect(deploy.stdout).toMatch(/^preflight:\n/);
    expect(deploy.stdout).toContain('FAIL    The namespace exists');
    expect(deploy.stderr).toMatch(
      /409 preflight refused the deploy to qwen2-5-7b-instruct@local\/nowhere, nothing was applied/,
    );
    // In the CLI's words: its flag, not the REST field.
    expect(deploy.stderr).toMatch(
      /\. Deploy with --skip-preflight to apply anyway\n$/,
    );
  });

  it('--json prints the answer of GET /models/:name/preflight', async () => {
    const res = await run([
      'preflight',
      'qwen2-5-7b-instruct',
      '--cluster',
      'local',
      '--namespace',
      'models',
      '--json',
    ]);
    expect(JSON.parse(res.stdout)).toMatchObject({
      model: 'qwen2-5-7b-instruct',
      checks: expect.arrayContaining([
        expect.objectContaining({ id: 'nodes', status: 'pass' }),
      ]),
    });
  });
});
