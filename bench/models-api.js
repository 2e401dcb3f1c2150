#!/usr/bin/env node
/*
 * Benchmark: GET /api/model-manager/models at catalog scale, through the real portal backend
 * (bench/backend-memory-child.js: the plugins of packages/backend/src/index.ts, development mode)
 * over HTTP with a guest token, with a generated N-model catalog (80% vLLM, 20% OpenVINO, 50 owner
 * groups, one vLLM model in 7 pinned to 0.19.1).
 *
 *   1. a page of 50, cold: the first request after the catalog loaded (the backend builds the
 *      summaries right after each load, in the background);
 *   2. pages of 50, warm: first page, a deep page, a filter, a text query, another sort (median and
 *      slowest of --runs each);
 *   3. the full list (no limit), what the CLI and the scaffolder read;
 *   4. conditional requests: the same page and the full list with If-None-Match -> 304.
 *
 * By default our catalog module is left out, so the figures are not mixed with the catalog
 * ingesting N entities on the same 2 cores; --with-entities adds it (the portal as shipped).
 *
 *   node bench/models-api.js [N=10000] [--runs 30] [--with-entities]
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { sizeArg, takeOption } = require('./benchArgs');
const { copyRuntimes, mixedModelsYaml } = require('./catalogFixture');
const {
  assertNothingListens,
  guestHeaders,
  spawnBackend,
  stopBackend,
  waitForBackend,
  waitForModels,
  writeBenchConfig,
} = require('./portalBackend');

const argv = process.argv.slice(2);
const runs = Number(takeOption(argv, '--runs', 30));
const withEntities = argv.includes('--with-entities');
const n = sizeArg(argv, 10000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-bench-models-api-'));
const PORT = 7057;

const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = t0 => Number(process.hrtime.bigint() - t0) / 1e6;
const f1 = x => x.toFixed(1);

(async () => {
  copyRuntimes(dir);
  fs.writeFileSync(path.join(dir, 'models.yaml'), mixedModelsYaml(n));
  const base = writeBenchConfig(dir, {
    port: PORT,
    catalog: { providers: { modelManager: { apiEntities: false } } },
  });
  await assertNothingListens(base);
  console.log(
    `starting the portal backend with a ${n}-model catalog${
      withEntities ? ' and our catalog module' : ''
    } ...`,
  );
  const child = spawnBackend(dir, {
    env: {
      WITH_MODEL_MANAGER: withEntities ? 'full' : 'no-entities',
      MODEL_MANAGER_NO_TEST_CLUSTER: '1',
    },
  });
  try {
    await waitForBackend(base);
    const headers = await guestHeaders(base);
    await waitForModels(base, headers, n);

    /** One GET, timed until its body is read. */
    const get = async (query, extra = {}) => {
      const t0 = process.hrtime.bigint();
      const res = await fetch(`${base}/api/model-manager/models${query}`, {
        headers: { ...headers, ...extra },
      });
      const body = await res.text();
      return {
        ms: ms(t0),
        status: res.status,
        bytes: body.length,
        etag: res.headers.get('etag'),
        body,
      };
    };
    const timed = async (query, extra) => {
      const results = [];
      for (let i = 0; i < runs; i++) results.push(await get(query, extra));
      const times = results.map(r => r.ms);
      return {
        median: median(times),
        max: Math.max(...times),
        status: results[0].status,
        bytes: results[0].bytes,
        etag: results[0].etag,
        body: results[0].body,
      };
    };

    const cold = await get('?limit=50');
    console.log(
      `page of 50, cold (the first request after the catalog loaded): ${f1(
        cold.ms,
      )} ms, ${cold.bytes} bytes, total ${JSON.parse(cold.body).total}`,
    );

    const pages = [
      ['first page', '?limit=50'],
      [
        'deep page (offset 9,000)',
        `?limit=50&offset=${Math.min(9000, n - 50)}`,
      ],
      ['filter runtime=openvino', '?runtime=openvino&limit=50'],
      [
        'filter owner + version',
        '?owner=group:default/team-7&version=0.19.1&limit=50',
      ],
      ['text query q=model-12', '?q=model-12&limit=50'],
      ['sort=-version, page 20', '?sort=-version&limit=50&offset=950'],
    ];
    for (const [what, query] of pages) {
      const r = await timed(query);
      console.log(
        `page of 50, warm, ${what}: median ${f1(r.median)} ms, slowest ${f1(
          r.max,
        )} ms (${runs} runs), total ${JSON.parse(r.body).total}`,
      );
    }
    const full = await timed('');
    console.log(
      `full list (no limit): median ${f1(full.median)} ms, slowest ${f1(
        full.max,
      )} ms (${runs} runs), ${(full.bytes / 1e6).toFixed(2)} MB`,
    );

    const page = await get('?limit=50&offset=100');
    const page304 = await timed('?limit=50&offset=100', {
      'If-None-Match': page.etag,
    });
    const full304 = await timed('', { 'If-None-Match': full.etag });
    if (page304.status !== 304 || full304.status !== 304)
      throw new Error(
        `expected 304, got ${page304.status} and ${full304.status}`,
      );
    console.log(
      `304 (If-None-Match) for a page: median ${f1(
        page304.median,
      )} ms, slowest ${f1(page304.max)} ms; for the full list: median ${f1(
        full304.median,
      )} ms, slowest ${f1(full304.max)} ms (${runs} runs, ${
        page304.bytes + full304.bytes
      } body bytes)`,
    );
  } finally {
    // The backend shuts down gracefully on SIGTERM; past 10 s it is killed.
    await stopBackend(child, 10_000);
  }
})().catch(e => {
  console.error(e);
  process.exitCode = 1;
});
