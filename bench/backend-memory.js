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
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const runs = runsAt >= 0 ? Number(argv.splice(runsAt, 2)[1]) : 5;
const dev = argv.includes('--dev');
const n = Number(argv.find(a => /^\d+$/.test(a)) ?? 10000);
const root = path.resolve(__dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-bench-rss-'));
fs.cpSync(path.join(root, 'runtimes'), path.join(dir, 'runtimes'), {
  recursive: true,
});
const repo = fs.readFileSync(path.join(root, 'models.yaml'), 'utf8');
const parts = ['models:\n'];
for (let i = 0; i < n; i++)
  parts.push(
    `  model-${i}:\n    model_id: org/model-${i}\n    category: llm\n    server:\n      runtime: vllm\n`,
  );
fs.writeFileSync(
  path.join(dir, 'models.yaml'),
  `${parts.join('')}\n${repo.slice(repo.indexOf('\nruntimes:') + 1)}`,
);
const base = 'http://127.0.0.1:7027';
fs.writeFileSync(
  path.join(dir, 'bench.yaml'),
  `app:\n  baseUrl: ${base}\nbackend:\n  baseUrl: ${base}\n  listen:\n    port: 7027\n    host: 127.0.0.1\nauth:\n  providers:\n    guest:\n      dangerouslyAllowOutsideDevelopment: true\ncatalog:\n  providers:\n    modelManager:\n      apiEntities: false\nmodelManager:\n  modelsFile: ${dir}/models.yaml\n  runtimesDir: ${dir}/runtimes\n  watch: false\n`,
);

const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const tick = () => new Promise(r => setTimeout(r, 200));
async function until(check, timeoutMs) {
  const start = Date.now();
  for (;;) {
    try {
      if (await check()) return;
    } catch {}
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await tick();
  }
}
const rss = pid =>
  Number(
    /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1],
  ) * 1024;

async function measure(mode) {
  const withModelManager = mode === 'full';
  const preload = dev
    ? '@backstage/cli/config/nodeTransform.cjs'
    : path.join(__dirname, 'resolve-built.js');
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      '-r',
      preload,
      path.join(__dirname, 'backend-memory-child.js'),
    ],
    {
      cwd: path.join(root, 'packages/backend'),
      env: {
        ...process.env,
        NODE_ENV: dev ? 'development' : 'production',
        WITH_MODEL_MANAGER: mode === 'without' ? '' : mode,
        APP_CONFIG_FILES: `${root}/app-config.yaml,${dir}/bench.yaml`,
      },
      stdio: 'ignore',
    },
  );
  try {
    const { backstageIdentity } = await (async () => {
      await until(
        async () => (await fetch(`${base}/api/auth/guest/refresh`)).ok,
        300_000,
      );
      return (await fetch(`${base}/api/auth/guest/refresh`)).json();
    })();
    const headers = { Authorization: `Bearer ${backstageIdentity.token}` };
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
      );
    } else if (mode === 'no-entities') {
      // A cheap readiness check: listing 10,000 models in each poll would leave garbage behind.
      await until(
        async () =>
          (
            await (
              await fetch(`${base}/api/model-manager/status`, { headers })
            ).json()
          ).models === n,
        300_000,
      );
    } else {
      await until(
        async () =>
          (
            await fetch(`${base}/api/catalog/entities?limit=1`, { headers })
          ).ok,
        300_000,
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
