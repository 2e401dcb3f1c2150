#!/usr/bin/env node
/*
 * Benchmark: how long the real portal backend takes to get N models (and their runtime and API
 * entities) into the catalog API, how long a one-model change takes to show, and the backend's
 * memory (RSS) when it is done.
 *
 *   1. generates an N-model models.yaml (80% vLLM, 20% OpenVINO, 50 owner groups);
 *   2. starts the portal backend (bench/backend-memory-child.js: the plugins of
 *      packages/backend/src/index.ts) with app-config.yaml plus a bench config pointing
 *      modelManager at that file (watch on), on in-memory SQLite or on PostgreSQL;
 *   3. from the moment the backend answers, polls the catalog API (guest token) with
 *      `by-query?filter=...&limit=1` until `totalItems` reaches N model Components, N model APIs
 *      and the runtime Resources, and prints when each got there;
 *   4. changes one model's description in models.yaml, --changes times, and measures until the
 *      catalog API shows the new description;
 *   5. prints VmRSS and VmHWM of the backend from /proc/<pid>/status, before and after a full GC.
 *
 * Options:
 *   --db sqlite|pg       database (default sqlite, in memory). pg: the server of
 *                        BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING (eval
 *                        "$(scripts/start-postgres.sh)"), databases with a per-run prefix, dropped
 *                        at the end.
 *   --catalog shipped|defaults
 *                        shipped (default): the catalog settings app-config.yaml ships.
 *                        defaults: the catalog's own defaults for processingInterval (100-150 s) and
 *                        stitchingStrategy (pollingInterval 1 s, stitchTimeout 60 s), written out.
 *   --prod               NODE_ENV=production, our packages loaded from dist (bench/resolve-built.js;
 *                        build them first: `npx backstage-cli repo build` or `backstage-cli package
 *                        build` in each of plugins/*-backend*, -common and -node).
 *   --static FILE        the catalog alone: leave our plugins out and let the catalog read FILE (the
 *                        entities our provider emits, written by --dump-entities) as a static file
 *                        location; separates the catalog's memory from ours.
 *   --dump-entities FILE write the entities our provider builds for the generated catalog to FILE
 *                        (multi-document YAML) and exit.
 *   --changes K          one-model changes to time (default 3).
 *   --cpu-prof DIR       run the backend with --cpu-prof, profiles written to DIR on exit.
 *   --log FILE           the backend's stdout/stderr go to FILE (default: discarded).
 *   --port P             the backend's port (default 7067).
 *   --require FILE       one more preload for the backend (e.g. a profiler).
 *
 *   node bench/ingestion.js [N=10000] [--db sqlite|pg] [--catalog shipped|defaults] [--prod]
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { takeOption, sizeArg } = require('./benchArgs');
const { copyRuntimes, mixedModelsYaml } = require('./catalogFixture');
const {
  assertNothingListens,
  guestHeaders,
  spawnBackend,
  stopBackend,
  until,
  waitForBackend,
  writeBenchConfig,
} = require('./portalBackend');

const argv = process.argv.slice(2);
const db = takeOption(argv, '--db', 'sqlite');
const catalogSettings = takeOption(argv, '--catalog', 'shipped');
const staticFile = takeOption(argv, '--static', undefined);
const dumpFile = takeOption(argv, '--dump-entities', undefined);
const changes = Number(takeOption(argv, '--changes', '3'));
const cpuProfDir = takeOption(argv, '--cpu-prof', undefined);
const logFile = takeOption(argv, '--log', undefined);
const extraPreload = takeOption(argv, '--require', undefined);
const PORT = Number(takeOption(argv, '--port', '7067'));
const prod = argv.includes('--prod');
const n = sizeArg(argv, 10000);
if (!['sqlite', 'pg'].includes(db)) throw new Error('--db: sqlite or pg');
if (!['shipped', 'defaults'].includes(catalogSettings))
  throw new Error('--catalog: shipped or defaults');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-bench-ingestion-'));
const modelsFile = path.join(dir, 'models.yaml');
const s1 = ms => (ms / 1000).toFixed(1);
const mib = kib => Math.round(kib / 1024);

/** The catalog's section of the bench config. */
function catalogConfig() {
  return {
    // The defaults of @backstage/plugin-catalog-backend 4.0 (CatalogBuilder.getDefaultProcessingInterval:
    // random 100-150 s; stitching/types.ts: pollingInterval 1 s, stitchTimeout 60 s), written out so
    // they replace what app-config.yaml sets.
    ...(catalogSettings === 'defaults'
      ? {
          processingInterval: { seconds: 100 },
          stitchingStrategy: {
            pollingInterval: { seconds: 1 },
            stitchTimeout: { seconds: 60 },
          },
        }
      : {}),
    ...(staticFile
      ? {
          locations: [
            {
              type: 'file',
              target: path.resolve(staticFile),
              rules: [{ allow: ['Component', 'Resource', 'API'] }],
            },
          ],
        }
      : {}),
    providers: {
      modelManager: { apiEntities: true, deploymentsRefreshSeconds: 0 },
    },
  };
}

/** Writes the catalog and the bench config; the backend's base URL. */
function writeConfig(dbPrefix) {
  copyRuntimes(dir);
  fs.writeFileSync(modelsFile, mixedModelsYaml(n));
  return writeBenchConfig(dir, {
    port: PORT,
    database:
      db === 'pg'
        ? {
            client: 'pg',
            connection:
              process.env.BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING,
            prefix: dbPrefix,
          }
        : undefined,
    catalog: catalogConfig(),
    modelManager: { watch: true },
  });
}

/** --dump-entities: the entities our provider builds for the generated catalog, as YAML. */
async function dumpEntities(file) {
  require('@backstage/cli/config/nodeTransform.cjs');
  copyRuntimes(dir);
  fs.writeFileSync(modelsFile, mixedModelsYaml(n));
  const { ConfigReader } = require('@backstage/config');
  const { loadCatalog } = require('@model-manager/plugin-model-manager-node');
  const {
    buildEntities,
    readProviderConfig,
  } = require('@model-manager/plugin-catalog-backend-module-model-manager');
  const yaml = require('yaml');
  const catalog = await loadCatalog({
    modelsFile,
    runtimesDir: path.join(dir, 'runtimes'),
  });
  const options = readProviderConfig(
    new ConfigReader({
      modelManager: { modelsFile },
      catalog: {
        providers: {
          modelManager: {
            defaultOwner: 'group:default/ml-platform',
            defaultLifecycle: 'production',
            defaultSystem: 'model-serving',
            apiEntities: true,
          },
        },
      },
    }),
  );
  const { entities } = buildEntities(catalog, options);
  // The catalog sets the managed-by annotations of entities it reads from a file location itself.
  for (const e of entities) {
    delete e.metadata.annotations['backstage.io/managed-by-location'];
    delete e.metadata.annotations['backstage.io/managed-by-origin-location'];
  }
  fs.writeFileSync(file, entities.map(e => yaml.stringify(e)).join('---\n'));
  console.log(`wrote ${entities.length} entities to ${file}`);
}

function status(pid) {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = key => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(text)[1]);
  return { rss: kib('VmRSS'), hwm: kib('VmHWM') };
}

/** CPU seconds (user + system) the process used so far: the work, whatever else runs. */
function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of proc(5), in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function pgAdmin(sql) {
  const { Client } = require('pg');
  const client = new Client({
    connectionString:
      process.env.BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING,
  });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

async function main() {
  if (dumpFile) {
    await dumpEntities(dumpFile);
    fs.rmSync(dir, { recursive: true, force: true });
    return;
  }
  if (
    db === 'pg' &&
    !process.env.BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING
  )
    throw new Error(
      '--db pg needs BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING: eval "$(scripts/start-postgres.sh)"',
    );
  const dbPrefix = `mm_bench_ingest_${process.pid}_`;
  const base = writeConfig(dbPrefix);
  await assertNothingListens(base);
  const mode = prod ? 'production, our packages from dist' : 'development';
  console.log(
    `${n} models, ${
      db === 'pg' ? 'PostgreSQL' : 'SQLite in memory'
    }, ${mode}, catalog settings: ${catalogSettings}${
      staticFile ? `, catalog alone reading ${staticFile}` : ''
    }; load: ${os
      .loadavg()
      .map(l => l.toFixed(2))
      .join(' ')}`,
  );
  const out = logFile ? fs.openSync(logFile, 'w') : 'ignore';
  const started = Date.now();
  const child = spawnBackend(dir, {
    prod,
    nodeArgs: [
      '--expose-gc',
      ...(cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir] : []),
    ],
    preloads: extraPreload ? [path.resolve(extraPreload)] : [],
    env: {
      WITH_MODEL_MANAGER: staticFile ? '' : 'full',
      MODEL_MANAGER_NO_TEST_CLUSTER: '1',
    },
    stdio: ['ignore', out, out],
  });
  try {
    await waitForBackend(base);
    const answered = Date.now();
    const cpuAtAnswer = cpuSeconds(child.pid);
    console.log(`backend answers after ${s1(answered - started)} s`);
    const headers = await guestHeaders(base);
    const count = async filter => {
      const res = await fetch(
        `${base}/api/catalog/entities/by-query?filter=${encodeURIComponent(
          filter,
        )}&limit=1`,
        { headers },
      );
      return (await res.json()).totalItems;
    };
    const wanted = [
      ['model Components', 'kind=component,spec.type=model-server', n],
      ['runtime Resources', 'kind=resource,spec.type=model-runtime', 2],
      ['model APIs', 'kind=api,metadata.annotations.model-manager.io/model', n],
    ];
    // One count per poll (the filters are ORed), every second: the count itself costs the
    // catalog's database a few ms per call at 20,000 entities, and on SQLite everything shares one
    // connection. The per-kind counts only go with the progress line every 15 s.
    const everything = wanted.reduce((sum, [, , want]) => sum + want, 0);
    const countAll = async () => {
      const query = wanted
        .map(([, filter]) => `filter=${encodeURIComponent(filter)}`)
        .join('&');
      const res = await fetch(
        `${base}/api/catalog/entities/by-query?${query}&limit=1`,
        { headers },
      );
      return (await res.json()).totalItems;
    };
    let lastReport = Date.now();
    await until(
      async () => {
        if (Date.now() - lastReport > 15_000) {
          lastReport = Date.now();
          const counts = [];
          for (const [what, filter] of wanted)
            counts.push(`${await count(filter)} ${what}`);
          console.log(
            `  ${s1(Date.now() - answered)} s: ${counts.join(', ')}; RSS ${mib(
              status(child.pid).rss,
            )} MiB`,
          );
        }
        return (await countAll()) >= everything;
      },
      1_800_000,
      'every entity in the catalog API',
      1000,
    );
    const all = Date.now() - answered;
    const cpu = cpuSeconds(child.pid) - cpuAtAnswer;
    console.log(
      `ingestion: every entity visible ${s1(
        all,
      )} s after the backend answered (${s1(
        all + answered - started,
      )} s after start); the backend used ${cpu.toFixed(
        1,
      )} CPU seconds for it (${Math.round(
        (100 * cpu * 1000) / all,
      )}% of one core on average); load ${os
        .loadavg()
        .map(l => l.toFixed(2))
        .join(' ')}`,
    );
    const atIngested = status(child.pid);

    if (!staticFile) {
      const times = [];
      for (let k = 1; k <= changes; k++) {
        const i = 1 + k * 10; // a vLLM model (i % 5 !== 4)
        const description = `changed ${k} at ${Date.now()}`;
        const t0 = Date.now();
        const cpu0 = cpuSeconds(child.pid);
        fs.writeFileSync(modelsFile, mixedModelsYaml(n, { [i]: description }));
        await until(
          async () => {
            const res = await fetch(
              `${base}/api/catalog/entities/by-name/component/default/model-${i}`,
              { headers },
            );
            return (await res.json()).metadata.description === description;
          },
          600_000,
          `the change of model-${i}`,
          100,
        );
        times.push(Date.now() - t0);
        console.log(
          `  one-model change ${k}/${changes} (model-${i} description): visible after ${s1(
            times[times.length - 1],
          )} s (${(cpuSeconds(child.pid) - cpu0).toFixed(2)} CPU s)`,
        );
      }
    }

    // Let the processing loop settle, then read memory as it comes and after a full GC.
    await new Promise(r => setTimeout(r, 5000));
    const idle = status(child.pid);
    child.kill('SIGUSR2');
    await new Promise(r => setTimeout(r, 2000));
    const afterGc = status(child.pid);
    console.log(
      `backend memory: VmRSS ${mib(
        atIngested.rss,
      )} MiB when all were visible, ${mib(
        idle.rss,
      )} MiB after the changes, ${mib(
        afterGc.rss,
      )} MiB after a full GC; VmHWM (peak) ${mib(afterGc.hwm)} MiB; load ${os
        .loadavg()
        .map(l => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    // The backend shuts down gracefully on SIGTERM (and then writes a --cpu-prof profile); past
    // 20 s it is killed.
    await stopBackend(child, 20_000);
    if (db === 'pg') {
      const { rows } = await pgAdmin(
        `SELECT datname FROM pg_database WHERE datname LIKE '${dbPrefix}%'`,
      );
      for (const { datname } of rows)
        await pgAdmin(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch(e => {
  console.error(e);
  process.exitCode = 1;
});
