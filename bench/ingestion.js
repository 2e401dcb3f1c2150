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
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv.splice(at, 2)[1] : fallback;
};
const db = option('--db', 'sqlite');
const catalogSettings = option('--catalog', 'shipped');
const staticFile = option('--static', undefined);
const dumpFile = option('--dump-entities', undefined);
const changes = Number(option('--changes', '3'));
const cpuProfDir = option('--cpu-prof', undefined);
const logFile = option('--log', undefined);
const extraPreload = option('--require', undefined);
const PORT = Number(option('--port', '7067'));
const prod = argv.includes('--prod');
const n = Number(argv.find(a => /^\d+$/.test(a)) ?? 10000);
if (!['sqlite', 'pg'].includes(db)) throw new Error('--db: sqlite or pg');
if (!['shipped', 'defaults'].includes(catalogSettings))
  throw new Error('--catalog: shipped or defaults');

const root = path.resolve(__dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-bench-ingestion-'));
const base = `http://127.0.0.1:${PORT}`;
const modelsFile = path.join(dir, 'models.yaml');
const s1 = ms => (ms / 1000).toFixed(1);
const mib = kib => Math.round(kib / 1024);

async function until(check, timeoutMs, what, everyMs = 200) {
  const t0 = Date.now();
  for (;;) {
    try {
      if (await check()) return Date.now() - t0;
    } catch {}
    if (Date.now() - t0 > timeoutMs)
      throw new Error(`timed out after ${s1(timeoutMs)} s waiting for ${what}`);
    await new Promise(r => setTimeout(r, everyMs));
  }
}

/** The generated models.yaml: 80% vLLM (one in 7 pinned), 20% OpenVINO, 50 owner groups. */
function modelsYaml(described = {}) {
  const repo = fs.readFileSync(path.join(root, 'models.yaml'), 'utf8');
  const parts = ['models:\n'];
  for (let i = 0; i < n; i++) {
    const owner = `    owner: group:default/team-${
      i % 50
    }\n    tags: [bench, batch-${i % 20}]\n`;
    if (i % 5 === 4) {
      const description = described[i]
        ? `    description: ${described[i]}\n`
        : '';
      parts.push(
        `  model-${i}-ov:\n${description}    model_id: OpenVINO/model-${i}-int8-ov\n    category: embed\n${owner}    server:\n      runtime: openvino\n`,
      );
    } else {
      const pin = i % 7 === 0 ? `      server_version: "0.19.1"\n` : '';
      parts.push(
        `  model-${i}:\n    description: ${
          described[i] ?? `generated chat model ${i}`
        }\n    model_id: org/model-${i}\n    category: llm\n${owner}    server:\n      runtime: vllm\n${pin}`,
      );
    }
  }
  return `${parts.join('')}\n${repo.slice(repo.indexOf('\nruntimes:') + 1)}`;
}

function catalogConfig() {
  if (catalogSettings === 'shipped') return '';
  // The defaults of @backstage/plugin-catalog-backend 4.0 (CatalogBuilder.getDefaultProcessingInterval:
  // random 100-150 s; stitching/types.ts: pollingInterval 1 s, stitchTimeout 60 s), written out so
  // they replace what app-config.yaml sets.
  return `  processingInterval: { seconds: 100 }\n  stitchingStrategy:\n    pollingInterval: { seconds: 1 }\n    stitchTimeout: { seconds: 60 }\n`;
}

function writeConfig(dbPrefix) {
  fs.cpSync(path.join(root, 'runtimes'), path.join(dir, 'runtimes'), {
    recursive: true,
  });
  fs.writeFileSync(modelsFile, modelsYaml());
  const database =
    db === 'pg'
      ? `  database:\n    client: pg\n    connection: ${process.env.BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING}\n    prefix: ${dbPrefix}\n`
      : '';
  const locations = staticFile
    ? `  locations:\n    - type: file\n      target: ${path.resolve(
        staticFile,
      )}\n      rules:\n        - allow: [Component, Resource, API]\n`
    : '';
  fs.writeFileSync(
    path.join(dir, 'bench.yaml'),
    `app:\n  baseUrl: ${base}\nbackend:\n  baseUrl: ${base}\n  listen:\n    port: ${PORT}\n    host: 127.0.0.1\n${database}` +
      `auth:\n  providers:\n    guest:\n      dangerouslyAllowOutsideDevelopment: true\n` +
      `catalog:\n${catalogConfig()}${locations}  providers:\n    modelManager:\n      apiEntities: true\n      deploymentsRefreshSeconds: 0\n` +
      `modelManager:\n  modelsFile: ${modelsFile}\n  runtimesDir: ${dir}/runtimes\n  watch: true\n`,
  );
}

/** --dump-entities: the entities our provider builds for the generated catalog, as YAML. */
async function dumpEntities(file) {
  require('@backstage/cli/config/nodeTransform.cjs');
  fs.cpSync(path.join(root, 'runtimes'), path.join(dir, 'runtimes'), {
    recursive: true,
  });
  fs.writeFileSync(modelsFile, modelsYaml());
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
  if (
    await fetch(`${base}/api/auth/guest/refresh`).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`something already listens on port ${PORT}: stop it first`);
  const dbPrefix = `mm_bench_ingest_${process.pid}_`;
  writeConfig(dbPrefix);
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
  const preload = prod
    ? path.join(__dirname, 'resolve-built.js')
    : '@backstage/cli/config/nodeTransform.cjs';
  const out = logFile ? fs.openSync(logFile, 'w') : 'ignore';
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      ...(cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir] : []),
      '-r',
      preload,
      ...(extraPreload ? ['-r', path.resolve(extraPreload)] : []),
      path.join(__dirname, 'backend-memory-child.js'),
    ],
    {
      cwd: path.join(root, 'packages/backend'),
      env: {
        ...process.env,
        NODE_ENV: prod ? 'production' : 'development',
        WITH_MODEL_MANAGER: staticFile ? '' : 'full',
        APP_CONFIG_FILES: `${root}/app-config.yaml,${dir}/bench.yaml`,
        MODEL_MANAGER_NO_TEST_CLUSTER: '1',
      },
      stdio: ['ignore', out, out],
    },
  );
  try {
    await until(
      async () => (await fetch(`${base}/api/auth/guest/refresh`)).ok,
      300_000,
      'the backend',
    );
    const answered = Date.now();
    const cpuAtAnswer = cpuSeconds(child.pid);
    console.log(`backend answers after ${s1(answered - started)} s`);
    const token = (await (await fetch(`${base}/api/auth/guest/refresh`)).json())
      .backstageIdentity.token;
    const headers = { Authorization: `Bearer ${token}` };
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
        fs.writeFileSync(modelsFile, modelsYaml({ [i]: description }));
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
    const exited = new Promise(resolve => child.once('exit', resolve));
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(killer);
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
