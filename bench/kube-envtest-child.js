#!/usr/bin/env node
/*
 * A REAL kube-apiserver v1.34.9 (with etcd) for benchmarks (`--target real`), from
 * KUBEBUILDER_ASSETS (`eval "$(scripts/envtest-assets.sh)"`): TLS, token auth (admin-token),
 * RBAC, the CRDs the product renders. KUBE_NAMESPACES: namespaces to create (default
 * default,models). KUBE_LATENCY_MS: every answer delayed this long by a TLS proxy in front of it
 * (RealKubeTarget, in this process, so its CPU is not the backend's). Prints READY <url>.
 */
require('@backstage/cli/config/nodeTransform.cjs');
const {
  KubeEnvtest,
  RealKubeTarget,
} = require('@model-manager/kube-api-test-server');

(async () => {
  const envtest = await KubeEnvtest.start({
    namespaces: (process.env.KUBE_NAMESPACES ?? 'default,models').split(','),
  });
  const latency = Number(process.env.KUBE_LATENCY_MS ?? 0);
  let proxy;
  if (latency > 0) {
    proxy = await RealKubeTarget.start(envtest);
    proxy.faults.inject({
      kind: 'latency',
      ms: latency,
      times: Number.POSITIVE_INFINITY,
    });
    // The proxy's request log would grow without bound over a benchmark.
    setInterval(() => proxy.resetRequests(), 1000).unref();
  }
  process.stdout.write(`READY ${proxy ? proxy.url : envtest.url}\n`);
  const stop = async () => {
    await proxy?.stop();
    await envtest.stop();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
})().catch(err => {
  process.stderr.write(`${err.stack || err}\n`);
  process.exit(1);
});
