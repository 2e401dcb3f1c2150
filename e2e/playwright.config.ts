import { defineConfig } from '@playwright/test';

/**
 * Browser end-to-end tests: Debian's Chromium drives the running portal (backend serving the
 * built frontend) with the Kubernetes API test double as the cluster. Screenshots of each step
 * land in e2e/test-results/.
 */
export default defineConfig({
  testDir: './tests',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  workers: 1,
  retries: 0,
  outputDir: './test-results',
  reporter: [
    ['list'],
    ['html', { outputFolder: './playwright-report', open: 'never' }],
  ],
  use: {
    baseURL: 'http://localhost:7007',
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      command:
        'node ../packages/kube-api-test-server/bin/kube-api-test-server.js',
      env: {
        KUBE_API_TEST_SERVER_PORT: '16443',
        // rollouts: the rollout-progress spec's own, so its rollout moves no other spec's targets.
        KUBE_API_TEST_SERVER_NAMESPACES: 'default,models,rollouts',
        // A node, a default StorageClass, the AI gateway and KServe's default Gateway (its managed
        // route of a vLLM model on routing epp attaches there): deploys pass preflight.
        KUBE_API_TEST_SERVER_SEED: 'working-cluster',
        KUBE_API_TEST_SERVER_GATEWAYS:
          'default/envoy-ai-gateway-basic,kserve/kserve-ingress-gateway',
        // Envoy Gateway's config with its Backend API on, as Envoy AI Gateway's install makes it.
        KUBE_API_TEST_SERVER_MANIFESTS:
          '../packages/model-manager-test-harness/cluster/envoy-gateway-config.yaml',
        // The Secret the gated llama references (README, "Gated and private models").
        KUBE_API_TEST_SERVER_SECRETS:
          'default/hf-token/token,models/hf-token/token',
      },
      port: 16443,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'pipe',
    },
    {
      command:
        'npx backstage-cli package start --config ../../app-config.yaml --config ../../e2e/app-config.e2e.yaml',
      cwd: '../packages/backend',
      url: 'http://127.0.0.1:7007/api/model-manager/health',
      timeout: 240_000,
      reuseExistingServer: false,
      stdout: 'pipe',
    },
  ],
});
