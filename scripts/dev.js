#!/usr/bin/env node
/*
 * `npm start`: the Kubernetes API test double on 127.0.0.1:6443 (a stand-in cluster so deploys work
 * out of the box; NOT Kubernetes — see packages/kube-api-test-server/README.md) plus the portal
 * (frontend :3000, backend :7007). Set MODEL_MANAGER_NO_TEST_CLUSTER=1 to skip the test double when
 * app-config points at a real cluster.
 */
const { spawn } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const children = [];
const run = (cmd, args, env) => {
  const child = spawn(cmd, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  children.push(child);
  child.on('exit', code => {
    for (const c of children)
      if (c !== child && c.exitCode === null) c.kill('SIGTERM');
    process.exitCode = code ?? 0;
  });
  return child;
};

if (!process.env.MODEL_MANAGER_NO_TEST_CLUSTER) {
  run(
    process.execPath,
    ['packages/kube-api-test-server/bin/kube-api-test-server.js'],
    {
      KUBE_API_TEST_SERVER_PORT:
        process.env.KUBE_API_TEST_SERVER_PORT ?? '6443',
      KUBE_API_TEST_SERVER_NAMESPACES: 'default,models',
      // A node, a default StorageClass, the AI gateway and KServe's default Gateway: deploys pass
      // preflight.
      KUBE_API_TEST_SERVER_SEED: 'working-cluster',
      KUBE_API_TEST_SERVER_GATEWAYS:
        'default/envoy-ai-gateway-basic,kserve/kserve-ingress-gateway',
      // Envoy Gateway's config with its Backend API on, as Envoy AI Gateway's install makes it.
      KUBE_API_TEST_SERVER_MANIFESTS:
        'packages/model-manager-test-harness/cluster/envoy-gateway-config.yaml',
      // The Secret the gated llama references (README, "Gated and private models").
      KUBE_API_TEST_SERVER_SECRETS:
        'default/hf-token/token,models/hf-token/token',
    },
  );
}
run(path.join(root, 'node_modules/.bin/backstage-cli'), [
  'repo',
  'start',
  ...process.argv.slice(2),
]);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const c of children) if (c.exitCode === null) c.kill(signal);
  });
}
