#!/usr/bin/env node
/*
 * Benchmark: time from a models.yaml change (1,000 models) to the change being visible through the
 * catalog REST API of the running backend. Starts the real backend on 127.0.0.1:7017 with a
 * generated catalog, renames one model in the file, and polls the catalog API.
 *
 *   node bench/catalog-latency.js [N=1000]
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { vllmModelsYaml, writeVllmCatalog } = require('./catalogFixture');

const n = Number(process.argv[2] ?? 1000);
const root = path.resolve(__dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-bench-latency-'));
const { models: names, modelsFile } = writeVllmCatalog(dir, n);
const models = vllmModelsYaml;
const base = 'http://127.0.0.1:7017';
fs.writeFileSync(
  path.join(dir, 'app-config.bench.yaml'),
  `app:\n  baseUrl: ${base}\nbackend:\n  baseUrl: ${base}\n  listen:\n    port: 7017\n    host: 127.0.0.1\nmodelManager:\n  modelsFile: ${modelsFile}\n  runtimesDir: ${path.join(
    dir,
    'runtimes',
  )}\n  watch: true\n`,
);

const backend = spawn(
  path.join(root, 'node_modules/.bin/backstage-cli'),
  [
    'package',
    'start',
    '--config',
    '../../app-config.yaml',
    '--config',
    path.join(dir, 'app-config.bench.yaml'),
  ],
  {
    cwd: path.join(root, 'packages/backend'),
    stdio: 'ignore',
    detached: true,
  },
);
const stop = () => {
  try {
    process.kill(-backend.pid, 'SIGTERM');
  } catch {
    // already gone
  }
};
process.on('exit', stop);

const tick = () => new Promise(r => setTimeout(r, 50));
async function until(check, what, timeoutMs) {
  const start = Date.now();
  for (;;) {
    try {
      if (await check()) return Date.now() - start;
    } catch {
      // not answering yet: asked again
    }
    if (Date.now() - start > timeoutMs)
      throw new Error(`timed out waiting for ${what}`);
    await tick();
  }
}

(async () => {
  await until(
    async () => (await fetch(`${base}/api/model-manager/health`)).ok,
    'the backend',
    300_000,
  );
  const { backstageIdentity } = await (
    await fetch(`${base}/api/auth/guest/refresh`)
  ).json();
  const headers = { Authorization: `Bearer ${backstageIdentity.token}` };
  const visible = name =>
    fetch(`${base}/api/catalog/entities/by-name/component/default/${name}`, {
      headers,
    }).then(r => r.ok);
  const initial = await until(
    () => visible(names[n - 1]),
    'the initial entities',
    600_000,
  );
  console.log(
    `${n} models: all entities visible ${initial} ms after the backend answered`,
  );

  const renamed = `${names[n - 1]}-renamed`;
  const t0 = Date.now();
  fs.writeFileSync(modelsFile, models([...names.slice(0, -1), renamed]));
  await until(() => visible(renamed), 'the renamed model', 600_000);
  const appeared = Date.now() - t0;
  await until(
    async () => !(await visible(names[n - 1])),
    'the old name to disappear',
    600_000,
  );
  const gone = Date.now() - t0;
  console.log(
    `${n} models: change in models.yaml -> renamed model visible in the catalog API after ${appeared} ms, old name gone after ${gone} ms`,
  );
  stop();
  process.exit(0);
})().catch(e => {
  console.error(e.message);
  stop();
  process.exit(1);
});
