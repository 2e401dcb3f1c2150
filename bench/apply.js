#!/usr/bin/env node
/*
 * Benchmark: deploy one model (its 1-3 objects) through our apply path (several objects: a dry-run
 * preflight of each, then server-side apply; one object: a read, then the apply; via
 * @kubernetes/client-node) against the Kubernetes API test server, and `kubectl apply
 * --server-side -f` of the same rendered files against the same server. Median of N runs each.
 *
 *   node bench/apply.js [runs=30] [--target double|real]
 *
 * --target real: against kube-apiserver v1.34.9 with etcd (TLS, token auth; KUBEBUILDER_ASSETS from
 * scripts/envtest-assets.sh) instead of the test double, kubectl with the admin token. The
 * requests each deploy sent are then not listed (the real server keeps no log of them).
 */
require('@backstage/cli/config/nodeTransform.cjs');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ConfigReader } = require('@backstage/config');
const {
  KubeApiTestServer,
  KubeEnvtest,
  ADMIN_TOKEN,
} = require('@model-manager/kube-api-test-server');
const { testClustersConfig } = require('@model-manager/test-harness');
const { loadCatalog } = require('@model-manager/plugin-model-manager-node');
const {
  resolveServer,
  renderManifests,
} = require('@model-manager/plugin-model-manager-common');
const {
  ClusterRegistry,
  ServerSideApplier,
} = require('@model-manager/plugin-model-manager-backend/testUtils');
const { silentLogger: logger } = require('./benchLogger');
const { kubectlApply, writeKubeconfig, writeManifests } = require('./kubectl');
const { takeTarget } = require('./kubeTarget');

const argv = process.argv.slice(2);
const target = takeTarget(argv);
const runs = Number(argv[0] ?? 30);
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

(async () => {
  // kubectl sends no bearer token over plain http, so it reaches the (http-only) test server as
  // system:anonymous, bound to full rights here as a cluster could bind it with RBAC.
  const real = target === 'real';
  const kube = real
    ? await KubeEnvtest.start({ namespaces: ['models'] })
    : await KubeApiTestServer.start({
        namespaces: ['models'],
        anonymous: 'forbidden',
        impersonatable: {
          'system:anonymous': [
            { namespaces: '*', verbs: '*', resources: '*', apiGroups: '*' },
          ],
        },
      });
  const catalog = await loadCatalog({
    modelsFile: path.join(__dirname, '..', 'models.yaml'),
  });
  const clusters = ClusterRegistry.fromConfig(
    new ConfigReader({
      kubernetes: testClustersConfig([{ name: 'bench', url: kube.url }]),
    }),
  );
  const applier = ServerSideApplier.create({ clusters, logger });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-bench-apply-'));
  const kubeconfig = path.join(dir, 'kubeconfig');
  writeKubeconfig(kubeconfig, kube.url, real ? ADMIN_TOKEN : undefined);

  for (const model of [
    'qwen2-5-7b-instruct',
    'phi-3-5-mini-instruct-int4-ov',
  ]) {
    const objects = renderManifests(catalog, resolveServer(catalog, model), {
      namespace: 'models',
    });
    const file = path.join(dir, `${model}.yaml`);
    writeManifests(
      file,
      objects.map(o => o.manifest),
    );
    // Warm up both (discovery caches, first create).
    await applier.apply('bench', { objects, dryRun: false, force: false });
    const kubectl = () => kubectlApply(kubeconfig, file);
    await kubectl().catch(e => {
      throw new Error(`kubectl failed: ${e.stderr}`);
    });

    const ours = [];
    let requests = '';
    for (let i = 0; i < runs; i++) {
      if (!real) kube.resetRequests();
      const t0 = process.hrtime.bigint();
      const outcome = await applier.apply('bench', {
        objects,
        dryRun: false,
        force: true,
      });
      ours.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (!outcome.ok) throw new Error(JSON.stringify(outcome.results));
      requests = real
        ? 'not recorded on a real server'
        : kube.requests
            .map(r =>
              r.method === 'PATCH'
                ? r.query.dryRun
                  ? 'dry-run'
                  : 'apply'
                : r.method,
            )
            .join(', ');
    }
    const theirs = [];
    for (let i = 0; i < runs; i++) {
      const t0 = process.hrtime.bigint();
      await kubectl();
      theirs.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    const o = median(ours);
    const k = median(theirs);
    console.log(
      `${model.padEnd(32)} ${objects.length} object(s)  ours median ${o
        .toFixed(1)
        .padStart(
          7,
        )} ms (requests: ${requests})  kubectl apply --server-side median ${k
        .toFixed(1)
        .padStart(7)} ms  ratio kubectl/ours ${(k / o).toFixed(
        1,
      )}x  (${runs} runs each)`,
    );
  }
  await kube.stop();
})().catch(e => {
  console.error(e);
  process.exit(1);
});
