/**
 * The TLS proxy benchmarks and fault tests put in front of a real kube-apiserver (RealKubeTarget)
 * must pass answers on as the server sends them. Runs in `npm run test:real-kube`; skipped
 * otherwise, with the reason printed.
 */
import https from 'node:https';
import { ADMIN_TOKEN } from '../defaults';
import { envtestAvailability } from './assets';
import { EnvtestConnection, KubeEnvtest } from './KubeEnvtest';
import { RealKubeTarget } from './RealKubeTarget';
import { kubeTargetKind } from './startKubeTarget';

const availability =
  kubeTargetKind() === 'real' ? envtestAvailability() : undefined;
const suite = availability?.run ? describe : describe.skip;
if (!availability?.run) {
  process.stdout.write(
    `RealKubeTarget against a real kube-apiserver skipped: ${
      availability
        ? availability.reason
        : 'runs in `npm run test:real-kube` (MODEL_MANAGER_TEST_KUBE=real)'
    }\n`,
  );
}

/** GET `path` on `base`; resolves with the status code once the answer's headers are in. */
function headersOf(base: string, path: string, ca: string) {
  return new Promise<{ status?: number; close: () => void }>(
    (resolve, reject) => {
      const req = https.get(
        new URL(path, base),
        { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` }, ca },
        res => resolve({ status: res.statusCode, close: () => req.destroy() }),
      );
      req.on('error', reject);
    },
  );
}

suite('RealKubeTarget', () => {
  let real: KubeEnvtest;
  let proxy: RealKubeTarget;

  beforeAll(async () => {
    const shared = process.env.MODEL_MANAGER_TEST_KUBE_ENVTEST;
    real = shared
      ? KubeEnvtest.attach(JSON.parse(shared) as EnvtestConnection)
      : await KubeEnvtest.start({ namespaces: ['default'] });
    proxy = await RealKubeTarget.start(real);
    proxy.faults.inject({
      kind: 'latency',
      ms: 20,
      times: Number.POSITIVE_INFINITY,
    });
  }, 300_000);

  afterAll(async () => {
    await proxy?.stop();
    await real?.stop();
  });

  // kube-apiserver sends a watch's headers at once, though no event may follow for minutes
  // (a watch from the current resourceVersion of a kind nothing changes); client-node's Watch
  // resolves on them, so a proxy that held them back stalled every watch that saw no change.
  it('passes a watch’s headers on before any event, as kube-apiserver sends them', async () => {
    const list = await real.request({
      method: 'GET',
      path: '/api/v1/namespaces/default/configmaps',
    });
    const rv = list.json.metadata.resourceVersion;
    const path = `/api/v1/pods?watch=true&resourceVersion=${rv}&labelSelector=nothing-has-this&allowWatchBookmarks=true&timeoutSeconds=600`;
    const direct = await headersOf(real.url, path, real.caPem);
    direct.close();
    expect(direct.status).toBe(200);
    const proxied = await headersOf(proxy.url, path, real.caPem);
    proxied.close();
    expect(proxied.status).toBe(200);
    // Held back, the headers came with the watch's end (timeoutSeconds, 10 minutes): this test's
    // own bound fails it long before.
  }, 30_000);
});
