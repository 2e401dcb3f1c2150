#!/usr/bin/env node
/*
 * Benchmark: resident memory of the running backend with a 10,000-model catalog loaded (and its
 * entities ingested by the catalog), against the same backend without the model-manager plugins.
 * Each backend runs in its own process (bench/backend-memory-child.js, which mirrors the plugin
 * list of packages/backend/src/index.ts); RSS is read from /proc after the catalog settled.
 *
 * By default the backend runs as in production: NODE_ENV=production and our packages built
 * (`backstage-cli repo build`, run first) and loaded from dist through bench/resolve-built.js.
 * --dev runs them from TypeScript through Backstage's run-time transform, as `npm start` does.
 * Starts alternate between the two backends, --runs times each (default 5); medians are printed.
 *
 *   node bench/backend-memory.js [N=10000] [--runs 5] [--dev] [--with-entities]
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { sizeArg, takeOption } = require('./benchArgs');
const { writeVllmCatalog } = require('./catalogFixture');
const {
  guestHeaders,
  spawnBackend,
  until,
  waitForBackend,
  waitForModels,
  writeBenchConfig,
} = require('./portalBackend');

const argv = process.argv.slice(2);
const runs = Number(takeOption(argv, '--runs', 5));
const dev = argv.includes('--dev');
const n = sizeArg(argv, 10000);
const root = path.resolve(__dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-bench-rss-'));
writeVllmCatalog(dir, n);
const base = writeBenchConfig(dir, {
  port: 7027,
  catalog: { providers: { modelManager: { apiEntities: false } } },
});

const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rss = pid =>
  Number(
    /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1],
  ) * 1024;

async function measure(mode) {
  const withModelManager = mode === 'full';
  const child = spawnBackend(dir, {
    prod: !dev,
    nodeArgs: ['--expose-gc'],
    env: { WITH_MODEL_MANAGER: mode === 'without' ? '' : mode },
  });
  try {
    await waitForBackend(base);
    const headers = await guestHeaders(base);
    if (withModelManager) {
      await until(
        async () =>
          (
            await fetch(
              `${base}/api/catalog/entities/by-name/component/default/model-${
                n - 1
              }`,
              { headers },
            )
          ).ok,
        1_800_000,
        `the catalog entity of model-${n - 1}`,
      );
    } else if (mode === 'no-entities') {
      await waitForModels(base, headers, n);
    } else {
      await until(
        async () =>
          (
            await fetch(`${base}/api/catalog/entities?limit=1`, { headers })
          ).ok,
        300_000,
        'the catalog API',
      );
    }
    // Let the processing loop go idle, then take the median of a few readings: as they come
    // (garbage not yet collected included), then each after a full garbage collection.
    const readings = [];
    const afterGc = [];
    for (let i = 0; i < 5; i++) {
      await new Promise(r => setTimeout(r, 2000));
      readings.push(rss(child.pid));
    }
    for (let i = 0; i < 3; i++) {
      child.kill('SIGUSR2');
      await new Promise(r => setTimeout(r, 1500));
      afterGc.push(rss(child.pid));
    }
    return { idle: median(readings), gc: median(afterGc) };
  } finally {
    child.kill('SIGKILL');
    await new Promise(r => child.once('exit', r));
  }
}

(async () => {
  const mib = b => (b / 1048576).toFixed(0);
  if (!dev) {
    console.log('building our packages (backstage-cli repo build) ...');
    execFileSync(
      path.join(root, 'node_modules/.bin/backstage-cli'),
      ['repo', 'build'],
      { cwd: root, stdio: 'ignore' },
    );
  }
  const mode = dev
    ? 'development (TypeScript transformed at run time)'
    : 'production (NODE_ENV=production, our packages from dist)';
  const without = [];
  const plugin = [];
  for (let i = 0; i < runs; i++) {
    without.push(await measure('without'));
    plugin.push(await measure('no-entities'));
    console.log(
      `run ${i + 1}/${runs}: without ${mib(
        without[i].idle,
      )} MiB (after GC ${mib(without[i].gc)}), with ${mib(
        plugin[i].idle,
      )} MiB (after GC ${mib(plugin[i].gc)}): +${mib(
        plugin[i].idle - without[i].idle,
      )} MiB (after GC +${mib(plugin[i].gc - without[i].gc)})`,
    );
  }
  for (const k of ['idle', 'gc']) {
    const w = without.map(r => r[k]);
    const p = plugin.map(r => r[k]);
    const deltas = p.map((x, i) => x - w[i]);
    console.log(
      `backend RSS ${
        k === 'idle'
          ? 'as it comes (idle, garbage not yet collected)'
          : 'after a full GC'
      }, ${mode}, median of ${runs} starts each: without model-manager ${mib(
        median(w),
      )} MiB (${mib(Math.min(...w))}-${mib(
        Math.max(...w),
      )}); with the model-manager backend plugin and scaffolder module holding a ${n}-model catalog ${mib(
        median(p),
      )} MiB (${mib(Math.min(...p))}-${mib(
        Math.max(...p),
      )}); difference of medians +${mib(
        median(p) - median(w),
      )} MiB, median of paired differences +${mib(median(deltas))} MiB`,
    );
  }
  if (argv.includes('--with-entities')) {
    const full = await measure('full');
    console.log(
      `backend RSS: with the catalog module too, all ${n} model entities ingested by the catalog (in-memory SQLite): ${mib(
        full.idle,
      )} MiB (+${mib(
        full.idle - median(without.map(r => r.idle)),
      )} MiB); after GC ${mib(full.gc)} MiB (+${mib(
        full.gc - median(without.map(r => r.gc)),
      )} MiB)`,
    );
  }
})().catch(e => {
  console.error(e);
  process.exit(1);
});
