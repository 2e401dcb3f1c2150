#!/usr/bin/env node
/*
 * Benchmark: preflight (GET /models/:name/preflight's work, without HTTP in) against Kubernetes API
 * test servers in this process, seeded like a working cluster (a node, a default StorageClass, the
 * AI gateway, a ResourceQuota per namespace).
 *
 *   1. One preflight, warm (the client loaded, connections open; each run a new session, so every
 *      read is a real GET): median of 20, for a vLLM model and an OpenVINO model.
 *   2. The rollout plan at N targets (N vLLM models, live at 0.19.1 on 3 clusters x 10 namespaces,
 *      moving to the default 0.24.0), with a preflight per move in one session (discovery, nodes
 *      and storage classes read once per cluster, quotas and limit ranges once per namespace),
 *      and without: median of 3, live reads cached (as within modelManager.fleet.cacheSeconds).
 *
 *   node bench/preflight.js [N=1000]
 */
require('@backstage/cli/config/nodeTransform.cjs');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const knexFactory = require('knex');
const { ConfigReader } = require('@backstage/config');
const { KubeApiTestServer } = require('@model-manager/kube-api-test-server');
const {
  renderManifests,
  resolveServer,
} = require('@model-manager/plugin-model-manager-common');
const {
  ClusterRegistry,
  DeploymentHistory,
  FleetService,
  LiveObjectCache,
  PreflightReader,
  PreflightService,
  ServerSideApplier,
} = require('@model-manager/plugin-model-manager-backend/testUtils');
const {
  seedSchedulableCluster,
  testClustersConfig,
} = require('@model-manager/test-harness');
const { sizeArg } = require('./benchArgs');
const { quietLogger: logger } = require('./benchLogger');
const { openCatalogStore, writeVllmCatalog } = require('./catalogFixture');

const n = sizeArg(process.argv.slice(2), 1000);
const CLUSTERS = ['east', 'west', 'north'];
const NAMESPACES = Array.from({ length: 10 }, (_, i) => `team-${i}`);
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = t0 => Number(process.hrtime.bigint() - t0) / 1e6;

(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-bench-preflight-'));
  // The repository's models too: the single preflights below are of two of them.
  const { models } = writeVllmCatalog(dir, n, { repoModels: true });
  const catalogStore = await openCatalogStore(dir, logger);
  const catalog = catalogStore.current();
  const servers = await Promise.all(
    CLUSTERS.map(() =>
      KubeApiTestServer.start({ namespaces: ['default', ...NAMESPACES] }),
    ),
  );
  for (const kube of servers) {
    seedSchedulableCluster(kube);
    for (const ns of NAMESPACES) {
      kube.store.put({
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'team', namespace: ns },
        spec: { hard: { 'requests.cpu': '10k', 'requests.memory': '100Ti' } },
      });
      kube.store.setStatus(
        {
          apiVersion: 'v1',
          kind: 'ResourceQuota',
          namespace: ns,
          name: 'team',
        },
        {
          hard: { 'requests.cpu': '10k', 'requests.memory': '100Ti' },
          used: { 'requests.cpu': '8', 'requests.memory': '16Gi' },
        },
      );
    }
  }
  // The targets, live at 0.19.1 (what a deploy of that version applied).
  models.forEach((model, i) => {
    const namespace =
      NAMESPACES[Math.floor(i / CLUSTERS.length) % NAMESPACES.length];
    const server = resolveServer(
      catalog,
      model,
      { serverVersion: '0.19.1' },
      { locate: false },
    );
    for (const o of renderManifests(catalog, server, { namespace }))
      servers[i % CLUSTERS.length].store.put(o.manifest);
  });
  const config = new ConfigReader({
    kubernetes: testClustersConfig(
      CLUSTERS.map((name, i) => ({ name, url: servers[i].url })),
    ),
  });
  const clusters = ClusterRegistry.fromConfig(config, { logger });
  const preflight = PreflightService.create({
    reader: PreflightReader.create({ clusters }),
    catalog: () => catalog,
  });

  // 1. One preflight, warm.
  for (const model of ['qwen2-5-7b-instruct', 'bge-small-en-v1-5-ov']) {
    const target = { cluster: 'east', namespace: 'team-0' };
    await preflight.preflight(model, target, {});
    const times = [];
    let checks;
    for (let r = 0; r < 20; r++) {
      const t0 = process.hrtime.bigint();
      checks = (await preflight.preflight(model, target, {})).checks;
      times.push(ms(t0));
    }
    console.log(
      `one preflight, warm (${model}, ${checks.length} checks: ${[
        ...new Set(checks.map(c => c.status)),
      ].join('/')}): median ${median(times).toFixed(1)} ms over 20`,
    );
  }

  // 2. The rollout plan at N targets.
  const db = knexFactory({
    client: 'better-sqlite3',
    connection: ':memory:',
    useNullAsDefault: true,
  });
  const history = await DeploymentHistory.create({
    database: { getClient: async () => db },
  });
  const applier = ServerSideApplier.create({ clusters, logger });
  const cache = LiveObjectCache.create({ applier, clusters, ttlMs: 600_000 });
  const fleetOf = withPreflight =>
    FleetService.create({
      cache,
      history,
      catalog: () => catalog,
      ...(withPreflight ? { preflight } : {}),
    });
  for (const [label, fleet] of [
    ['without preflight', fleetOf(false)],
    ['with preflight', fleetOf(true)],
  ]) {
    await fleet.plan({ runtime: 'vllm' }); // the live reads, cached
    const times = [];
    let plan;
    const requests0 = servers.reduce((s, k) => s + k.requestCount, 0);
    for (let r = 0; r < 3; r++) {
      const t0 = process.hrtime.bigint();
      plan = await fleet.plan({ runtime: 'vllm' });
      times.push(ms(t0));
    }
    const reads =
      (servers.reduce((s, k) => s + k.requestCount, 0) - requests0) / 3;
    const checked = plan.moves.filter(m => m.preflight).length;
    console.log(
      `rollout plan, ${
        plan.moves.length
      } moves of ${n} targets, ${label}: median ${(
        median(times) / 1000
      ).toFixed(2)} s over 3${
        checked
          ? `; ${checked} targets checked with ${reads} GETs per plan`
          : ''
      }`,
    );
  }
  await Promise.all(servers.map(s => s.stop()));
  await db.destroy();
  catalogStore.stop?.();
  process.exit(0);
})().catch(e => {
  console.error(e);
  process.exit(1);
});
