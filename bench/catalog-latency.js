#!/usr/bin/env node
/*
 * Benchmark: time from a models.yaml change (1,000 models) to the change being visible through the
 * catalog REST API of the running backend. Starts the real backend on 127.0.0.1:7017 with a
 * generated catalog, renames one model in the file, and polls the catalog API.
 *
 *   node bench/catalog-latency.js [N=1000]
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { vllmModelsYaml, writeVllmCatalog } = require('./catalogFixture');
const {
  assertNothingListens,
  guestHeaders,
  spawnBackend,
  until: untilAfter,
  waitForBackend,
  writeBenchConfig,
} = require('./portalBackend');

const n = Number(process.argv[2] ?? 1000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-bench-latency-'));
const { models: names, modelsFile } = writeVllmCatalog(dir, n);
const models = vllmModelsYaml;
// models.yaml watched, as a portal that follows its file runs.
const base = writeBenchConfig(dir, {
  port: 7017,
  modelManager: { watch: true },
});
let backend;
const stop = () => {
  try {
    if (backend) process.kill(backend.pid, 'SIGTERM');
  } catch {
    // already gone
  }
};
process.on('exit', stop);

/** `until`, asking every 50 ms (the figures are only as fine as that); the ms it waited. */
async function until(check, what, timeoutMs) {
  const t0 = Date.now();
  await untilAfter(check, timeoutMs, what, 50);
  return Date.now() - t0;
}

(async () => {
  await assertNothingListens(base);
  backend = spawnBackend(dir, { env: { WITH_MODEL_MANAGER: 'full' } });
  await waitForBackend(base, 50);
  const headers = await guestHeaders(base);
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
