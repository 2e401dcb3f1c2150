#!/usr/bin/env node
/*
 * Benchmark: the least time N server-side applies can take on this machine, whoever makes them.
 * It applies our rendered LLMInferenceServices to the API test doubles with the cheapest client
 * there is: the request bodies serialized before the clock starts, plain keep-alive HTTP, no
 * history, no audit, no resolve (nothing a rollout must do besides the apply itself). Beside it,
 * in the same run, ten `kubectl apply --server-side -f` in parallel, one per cluster, as
 * bench/fleet.js runs them. What the doubles cost for the applies is the floor of any rollout of
 * the same size here: they share the machine's cores with whatever applies (docs/performance.md,
 * issue 27's rollout figure).
 *
 *   node bench/apply-floor.js [N=10000] [--clusters 10] [--latency-ms 20] [--concurrency 16,64]
 *
 * Each round applies every object at the version it does not have, so every apply changes the
 * object (as a rollout's does); the first round creates them and is not timed.
 */
require('@backstage/cli/config/nodeTransform.cjs');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const knexFactory = require('knex');
const { ConfigReader } = require('@backstage/config');
const {
  ClusterRegistry,
  DeploymentHistory,
  ModelManagerService,
  ServerSideApplier,
} = require('@model-manager/plugin-model-manager-backend/testUtils');
const { sizeArg, takeOption } = require('./benchArgs');
const { pool } = require('./pool');
const { quietLogger: logger } = require('./benchLogger');
const { openCatalogStore, writeVllmCatalog } = require('./catalogFixture');
const { kubectlApply, writeKubeconfig, writeManifests } = require('./kubectl');
const { cpuTree, startKube } = require('./kubeTarget');

const argv = process.argv.slice(2);
const clusterCount = Number(takeOption(argv, '--clusters', '10'));
const latencyMs = Number(takeOption(argv, '--latency-ms', '20'));
const concurrencies = takeOption(argv, '--concurrency', '16,64')
  .split(',')
  .map(Number);
const n = sizeArg(argv, 10000);
const FIRST_PORT = 17461;
const VERSIONS = ['0.24.0', '0.19.1'];

const ms = t0 => Number(process.hrtime.bigint() - t0) / 1e6;
const load = () =>
  `load ${os
    .loadavg()
    .map(x => x.toFixed(1))
    .join(' ')}`;

/** One server-side apply over keep-alive HTTP; rejects unless the server answers 200 or 201. */
function apply(agent, url, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'PATCH',
        agent,
        headers: {
          'Content-Type': 'application/apply-patch+yaml',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      res => {
        const chunks = [];
        res.on('data', c => chunks.push(c));
        res.on('end', () =>
          res.statusCode === 200 || res.statusCode === 201
            ? resolve()
            : reject(
                new Error(
                  `${res.statusCode} ${Buffer.concat(chunks)
                    .toString()
                    .slice(0, 300)}`,
                ),
              ),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-bench-floor-'));
  const { models } = writeVllmCatalog(dir, n);
  console.log(
    `starting ${clusterCount} API test doubles (each answer delayed ${latencyMs} ms) ...`,
  );
  const kubes = await Promise.all(
    Array.from({ length: clusterCount }, (_, c) =>
      startKube('double', {
        port: FIRST_PORT + c,
        env: { KUBE_LATENCY_MS: String(latencyMs) },
      }),
    ),
  );
  const kubeCpu = () => kubes.reduce((s, k) => s + cpuTree(k.child.pid), 0);
  // The history's database (the service renders; nothing is recorded): destroyed at the end, or
  // its pool's timer keeps the process from exiting.
  const db = knexFactory({
    client: 'better-sqlite3',
    connection: ':memory:',
    useNullAsDefault: true,
  });
  try {
    // Our renders of every model at both versions (the objects a rollout applies).
    const catalog = await openCatalogStore(dir, logger);
    const config = new ConfigReader({
      kubernetes: {
        clusterLocatorMethods: [{ type: 'config', clusters: [] }],
      },
    });
    const clusters = ClusterRegistry.fromConfig(config, { logger });
    const service = ModelManagerService.create({
      catalog,
      clusters,
      applier: ServerSideApplier.create({ clusters, logger }),
      history: await DeploymentHistory.create({
        database: { getClient: async () => db },
      }),
      logger,
    });
    const rendered = {};
    for (const version of VERSIONS)
      rendered[version] = models.map((model, i) => {
        const objects = service.render(
          model,
          { serverVersion: version },
          'models',
        );
        if (objects.length !== 1 || objects[0].kind !== 'LLMInferenceService')
          throw new Error(`${model}: expected one LLMInferenceService`);
        const { manifest } = objects[0];
        return {
          cluster: i % clusterCount,
          manifest,
          body: JSON.stringify(manifest),
          path: `/apis/${manifest.apiVersion}/namespaces/models/llminferenceservices/${manifest.metadata.name}?fieldManager=model-manager&force=true`,
        };
      });

    const round = async (version, concurrency) => {
      // New connections each round: a connection left idle by the round before may be closed
      // by the server (its keep-alive timeout) just as it is reused.
      const agents = kubes.map(
        () => new http.Agent({ keepAlive: true, maxSockets: 256 }),
      );
      const kube0 = kubeCpu();
      const cpu0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      await pool(rendered[version], concurrency, o =>
        apply(agents[o.cluster], `${kubes[o.cluster].url}${o.path}`, o.body),
      );
      const wall = ms(t0);
      const own = process.cpuUsage(cpu0);
      agents.forEach(a => a.destroy());
      return {
        wall,
        kube: kubeCpu() - kube0,
        client: (own.user + own.system) / 1e6,
      };
    };
    // Create every object (not timed).
    let at = 0;
    await round(VERSIONS[at], 64);
    console.log(`created ${n} objects over ${clusterCount} clusters`);

    const walls = [];
    for (const concurrency of concurrencies) {
      at = 1 - at;
      const r = await round(VERSIONS[at], concurrency);
      walls.push([concurrency, r.wall]);
      console.log(
        `the cheapest client, ${concurrency} at once: ${n} applies in ${(
          r.wall / 1000
        ).toFixed(1)} s; the doubles' CPU ${r.kube.toFixed(1)} s (${(
          (r.kube * 1000) /
          n
        ).toFixed(2)} ms an apply), the client's ${r.client.toFixed(
          1,
        )} s (${load()})`,
      );
    }

    // kubectl, one per cluster in parallel, at the version the objects do not have.
    at = 1 - at;
    const version = VERSIONS[at];
    const files = kubes.map(({ url }, c) => {
      const file = path.join(dir, `cluster-${c}.yaml`);
      writeManifests(
        file,
        rendered[version].filter(o => o.cluster === c).map(o => o.manifest),
      );
      const kubeconfig = path.join(dir, `kubeconfig-${c}`);
      writeKubeconfig(kubeconfig, url);
      return { file, kubeconfig };
    });
    const kube0 = kubeCpu();
    const t0 = process.hrtime.bigint();
    await Promise.all(
      files.map(({ file, kubeconfig }) => kubectlApply(kubeconfig, file)),
    );
    const kubectl = ms(t0);
    const kube = kubeCpu() - kube0;
    console.log(
      `${clusterCount} x kubectl apply --server-side -f in parallel: ${n} applies in ${(
        kubectl / 1000
      ).toFixed(1)} s; the doubles' CPU ${kube.toFixed(1)} s (${(
        (kube * 1000) /
        n
      ).toFixed(2)} ms an apply) (${load()})`,
    );
    for (const [concurrency, wall] of walls)
      console.log(
        `ratio kubectl / the cheapest client at ${concurrency} at once: ${(
          kubectl / wall
        ).toFixed(2)}x (at least 3x needs ${(kubectl / 3000).toFixed(1)} s)`,
      );
  } finally {
    for (const k of kubes) k.child.kill('SIGTERM');
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
})().catch(e => {
  console.error(e);
  process.exit(1);
});
