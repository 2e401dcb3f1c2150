/*
 * What the model-manager CLI prints through the portal: in the CLI's words (flags, not REST
 * fields), with removed fields shown as such, and usage errors exiting 2.
 */
import { portalCli } from '../__testUtils__/portalCli';
import { useModelManager } from '../__testUtils__/testBackend';

describe('model-manager CLI messages', () => {
  const ctx = useModelManager();
  const run = portalCli(() => `http://localhost:${ctx.server.port()}`);
  const target = ['--cluster', 'local', '--namespace', 'models'];

  it('diff shows a field a deploy would remove as (absent), never undefined', async () => {
    expect(
      (await run(['deploy', 'bge-m3', ...target, '--env', 'EXTRA=1'])).code,
    ).toBe(0);
    const diff = await run(['diff', 'bge-m3', ...target]);
    expect(diff.code).toBe(1);
    expect(diff.stdout).not.toContain('undefined');
    expect(diff.stdout).toMatch(/EXTRA.*: .* -> \(absent\)\n/);
  });

  it('a conflict tells to deploy again with --force, the flag', async () => {
    expect((await run(['deploy', 'bge-reranker-v2-m3', ...target])).code).toBe(
      0,
    );
    // Someone takes a field over with kubectl.
    const res = await fetch(
      `${ctx.kube.url}/apis/serving.kserve.io/v1alpha2/namespaces/models/llminferenceservices/bge-reranker-v2-m3?fieldManager=kubectl&force=true`,
      {
        method: 'PATCH',
        headers: {
          'Content-Type': 'application/apply-patch+yaml',
          Authorization: 'Bearer admin-token',
        },
        body: JSON.stringify({
          apiVersion: 'serving.kserve.io/v1alpha2',
          kind: 'LLMInferenceService',
          metadata: { name: 'bge-reranker-v2-m3', namespace: 'models' },
          spec: { replicas: 3 },
        }),
      },
    );
    expect(res.status).toBe(200);
    const again = await run([
      'deploy',
      'bge-reranker-v2-m3',
      ...target,
      '--env',
      'X=1',
    ]);
    expect(again.code).toBe(1);
    const said = again.stdout + again.stderr;
    expect(said).toMatch(
      /fields are owned by another field manager \(kubectl\)/,
    );
    expect(said).toContain('deploy with --force to take them over');
    expect(said).not.toContain('force: true');
  });

  it('fleet --state with an unknown state is bad usage: exit 2, naming the states', async () => {
    const res = await run(['fleet', '--state', 'Bogus']);
    expect(res).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "model-manager fleet: --state must be one of Ready, NotReady, Missing, Unknown (got 'Bogus')\n",
    });
  });
});
