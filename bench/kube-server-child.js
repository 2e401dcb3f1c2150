#!/usr/bin/env node
/*
 * A Kubernetes API test server in its own process for benchmarks (so its CPU is not counted as
 * ours), on KUBE_PORT. Bearer tokens work as usual; anonymous requests (kubectl sends no token
 * over plain http) are authenticated as system:anonymous with full rights, as a cluster could
 * bind it with RBAC. KUBE_LATENCY_MS delays every answer (a remote API server's round trip,
 * admission webhooks, etcd commit). Prints READY when listening.
 */
require('@backstage/cli/config/nodeTransform.cjs');
const { KubeApiTestServer } = require('@model-manager/kube-api-test-server');

KubeApiTestServer.start({
  port: Number(process.env.KUBE_PORT),
  namespaces: (process.env.KUBE_NAMESPACES ?? 'default,models').split(','),
  anonymous: 'forbidden',
  impersonatable: {
    'system:anonymous': [
      { namespaces: '*', verbs: '*', resources: '*', apiGroups: '*' },
    ],
  },
}).then(server => {
  const latency = Number(process.env.KUBE_LATENCY_MS ?? 0);
  if (latency > 0)
    server.faults.inject({
      kind: 'latency',
      ms: latency,
      times: Number.POSITIVE_INFINITY,
    });
  process.stdout.write(`READY ${server.url}\n`);
  const stop = () => server.stop().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
});
