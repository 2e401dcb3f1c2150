#!/usr/bin/env node
/*
 * Starts the Kubernetes API TEST DOUBLE from source and prints its URL.
 * Configuration: see startFromEnv() in src/main.ts (KUBE_API_TEST_SERVER_PORT,
 * KUBE_API_TEST_SERVER_NAMESPACES, KUBE_API_TEST_SERVER_ANONYMOUS,
 * MODEL_MANAGER_CRD_DIR). Stops on SIGINT/SIGTERM.
 */
require('@backstage/cli/config/nodeTransform.cjs');
const { startFromEnv } = require('../src/main');
const { ADMIN_TOKEN, KSERVE_DEV_TOKEN } = require('../src/defaults');

startFromEnv().then(
  server => {
    process.stdout.write(
      `kube-api-test-server (a TEST DOUBLE, not Kubernetes) listening on ${server.url}\n` +
        `tokens: ${ADMIN_TOKEN} (admin), ${KSERVE_DEV_TOKEN} (kserve-dev)\n`,
    );
    const stop = () => server.stop().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  },
  err => {
    process.stderr.write(`${err.stack || err}\n`);
    process.exit(1);
  },
);
