#!/usr/bin/env node
/*
 * Benchmark: the backend's own cost per rollout target, without the portal around it (no HTTP
 * in, no scaffolder, no audit): ModelManagerService.applyRollout over N vLLM models, with the real
 * history (SQLite in memory, or PostgreSQL with --pg) and the real Kubernetes client, against an
 * API test server in its own process (so its CPU is not counted here). Prints this process's CPU
 * per target and the wall time.
 *
 *   node bench/rollout-apply.js [N=500] [--concurrency 8] [--pg] [--target double|real]
 *
 * --target real runs it against kube-apiserver v1.34.9 (TLS, token auth) instead of the API test
 * double (bench/kubeTarget.js; KUBEBUILDER_ASSETS from scripts/envtest-assets.sh).
 *   BENCH_CPU_PROF=/tmp/prof node bench/rollout-apply.js 500   # where the rollout's time goes
 *     (rollout.cpuprofile: this process during the second run only; bench/cpu-profile-summary.js)
 */
require('@backstage/cli/config/nodeTransform.cjs');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const knexFactory = require('knex');
const { ConfigReader } = require('@backstage/config');
const {
  ClusterRegistry,
  DeploymentHistory,
  FleetService,
  LiveObjectCache,
  ModelManagerService,
  ServerSideApplier,
} = require('@model-manager/plugin-model-manager-backend/testUtils');
const { testClustersConfig } = require('@model-manager/test-harness');
const { sizeArg, takeOption } = require('./benchArgs');
const { quietLogger: logger } = require('./benchLogger');
const { openCatalogStore, writeVllmCatalog } = require('./catalogFixture');
const { cpuTree, startKube, takeTarget } = require('./kubeTarget');

const argv = process.argv.slice(2);
const target = takeTarget(argv);
const concurrency = Number(takeOption(argv, '--concurrency', 8));
const pg = argv.includes('--pg');
const n = sizeArg(argv, 500);
const PORT = 17451;

/** This process's CPU profiler (node:inspector), started and stopped around one phase. */
async function profile() {
  const { Session } = require('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile: p } = await session.post('Profiler.stop');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(p));
      session.disconnect();
      console.log(`CPU profile of the rollout: ${file}`);
    },
  };
}

(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-bench-apply-'));
  const { models } = writeVllmCatalog(dir, n);
  const { url: kubeUrl, child: kube } = await startKube(target, {
    port: PORT,
  });
  try {
    const config = new ConfigReader({
      kubernetes: testClustersConfig([{ name: 'east', url: kubeUrl }]),
    });
    const db = pg
      ? knexFactory({
          client: 'pg',
          connection:
            process.env.BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING,
        })
      : knexFactory({
          client: 'better-sqlite3',
          connection: ':memory:',
          useNullAsDefault: true,
        });
    if (pg) {
      await db.raw('drop table if exists model_deployments cascade');
      await db.raw(
        'drop table if exists model_manager_knex_migrations cascade',
      );
      await db.raw(
        'drop table if exists model_manager_knex_migrations_lock cascade',
      );
    }
    const catalog = await openCatalogStore(dir, logger);
    const clusters = ClusterRegistry.fromConfig(config, { logger });
    const applier = ServerSideApplier.create({ clusters, logger });
    const history = await DeploymentHistory.create({
      database: { getClient: async () => db },
    });
    const cache = LiveObjectCache.create({ applier, clusters, ttlMs: 5000 });
    const fleet = FleetService.create({
      cache,
      history,
      // eslint-disable-next-line @typescript-eslint/no-use-before-define -- called after both exist, as the plugin wires them
      catalog: () => service.catalog(),
    });
    const service = ModelManagerService.create({
      catalog,
      clusters,
      applier,
      history,
      logger,
      fleet,
    });

    const batch = (rolloutId, version) =>
      Array.from({ length: Math.ceil(n / 50) }, (_, b) => ({
        runtime: 'vllm',
        ...(version ? { version } : {}),
        rolloutId,
        concurrency,
        targets: models.slice(b * 50, b * 50 + 50).map(model => ({
          model,
          cluster: 'east',
          namespace: 'models',
          overrides: version ? { serverVersion: version } : {},
        })),
      }));
    /** CPU seconds the API server (a real one: kube-apiserver and etcd) has used so far. */
    const kubeCpu = () => cpuTree(kube.pid);
    const run = async (rolloutId, version) => {
      const kube0 = kubeCpu();
      const cpu0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      let applied = 0;
      for (const request of batch(rolloutId, version)) {
        const { items } = await service.applyRollout(request, {
          actor: 'user:default/bench',
        });
        applied += items.filter(i => i.outcome === 'applied').length;
      }
      const wall = Number(process.hrtime.bigint() - t0) / 1e6;
      const cpu = process.cpuUsage(cpu0);
      return {
        applied,
        wall,
        cpuMs: (cpu.user + cpu.system) / 1000,
        kubeMs: (kubeCpu() - kube0) * 1000,
      };
    };
    // First: every target created (a cold client, migrations done).
    const first = await run('create', undefined);
    await fleet.fleet(); // the plan's LIST, as a rollout has it
    const prof = process.env.BENCH_CPU_PROF ? await profile() : undefined;
    const second = await run('rollout', '0.19.1');
    await prof?.stop(
      path.join(process.env.BENCH_CPU_PROF, 'rollout.cpuprofile'),
    );
    for (const [what, r] of [
      ['create (no fleet read before)', first],
      ['rollout after a fleet read', second],
    ])
      console.log(
        `${what}: ${r.applied}/${n} applied in ${(r.wall / 1000).toFixed(
          2,
        )} s; this process ${(r.cpuMs / n).toFixed(2)} ms CPU per target, the ${
          target === 'real' ? 'kube-apiserver and etcd' : 'API test server'
        } ${(r.kubeMs / n).toFixed(2)} ms (${
          pg ? 'PostgreSQL' : 'SQLite'
        }, concurrency ${concurrency}, --target ${target})`,
      );
    await db.destroy();
  } finally {
    // A real kube-apiserver's starter stops it and etcd on SIGTERM (SIGKILL would orphan them).
    kube.kill(
      process.env.KUBE_STOP_SIGNAL ??
        (target === 'real' ? 'SIGTERM' : 'SIGKILL'),
    );
  }
})().catch(e => {
  console.error(e);
  process.exitCode = 1;
});
