/*
 * The real portal backend as the benchmarks of the catalog and the models API run it: in its own
 * process (bench/backend-memory-child.js: the plugins of packages/backend/src/index.ts), with
 * app-config.yaml plus a bench config reading a catalog written into the benchmark's temporary
 * folder (bench/catalogFixture.js), reached over HTTP with a guest token.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { stringify } = require('yaml');

const root = path.resolve(__dirname, '..');

/**
 * Waits until `check()` resolves truthy (a check that throws counts as not yet), trying every
 * `everyMs` (a wait that is timed is only as fine as that).
 */
async function until(check, timeoutMs, what, everyMs = 200) {
  const t0 = Date.now();
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not answering yet: asked again
    }
    if (Date.now() - t0 > timeoutMs)
      throw new Error(
        `timed out after ${(timeoutMs / 1000).toFixed(
          1,
        )} s waiting for ${what}`,
      );
    await new Promise(r => setTimeout(r, everyMs));
  }
}

/**
 * Writes `dir`/bench.yaml: the backend on 127.0.0.1:`port`, the guest sign-in allowed outside
 * development, modelManager reading `dir`/models.yaml and `dir`/runtimes (not watched unless
 * `modelManager` says so). `database` is the backend's (default: app-config.yaml's), `catalog`
 * the catalog's section. Returns the backend's base URL.
 */
function writeBenchConfig(dir, { port, database, catalog, modelManager }) {
  const base = `http://127.0.0.1:${port}`;
  fs.writeFileSync(
    path.join(dir, 'bench.yaml'),
    stringify({
      app: { baseUrl: base },
      backend: {
        baseUrl: base,
        listen: { port, host: '127.0.0.1' },
        ...(database ? { database } : {}),
      },
      auth: {
        providers: { guest: { dangerouslyAllowOutsideDevelopment: true } },
      },
      catalog,
      modelManager: {
        modelsFile: path.join(dir, 'models.yaml'),
        runtimesDir: path.join(dir, 'runtimes'),
        watch: false,
        ...modelManager,
      },
    }),
  );
  return base;
}

/** Throws if something answers at `base` already: the figures would be that backend's. */
async function assertNothingListens(base) {
  const answers = await fetch(`${base}/api/auth/guest/refresh`).then(
    () => true,
    () => false,
  );
  if (answers)
    throw new Error(
      `something already listens on port ${new URL(base).port}: stop it first`,
    );
}

/**
 * Starts the backend with app-config.yaml and `dir`/bench.yaml. `prod`: NODE_ENV=production and
 * our packages from dist (bench/resolve-built.js; built first), else from TypeScript through
 * Backstage's run-time transform, as `npm start` does. `nodeArgs` go before the preloads,
 * `preloads` after ours, `env` over the environment (WITH_MODEL_MANAGER: which plugins).
 */
function spawnBackend(
  dir,
  { prod = false, nodeArgs = [], preloads = [], env, stdio = 'ignore' },
) {
  const preload = prod
    ? path.join(__dirname, 'resolve-built.js')
    : '@backstage/cli/config/nodeTransform.cjs';
  return spawn(
    process.execPath,
    [
      ...nodeArgs,
      ...[preload, ...preloads].flatMap(p => ['-r', p]),
      path.join(__dirname, 'backend-memory-child.js'),
    ],
    {
      cwd: path.join(root, 'packages/backend'),
      env: {
        ...process.env,
        NODE_ENV: prod ? 'production' : 'development',
        APP_CONFIG_FILES: `${root}/app-config.yaml,${dir}/bench.yaml`,
        ...env,
      },
      stdio,
    },
  );
}

/** Waits (up to 5 minutes) until the backend at `base` answers: its guest sign-in does. */
function waitForBackend(base, everyMs) {
  return until(
    async () => (await fetch(`${base}/api/auth/guest/refresh`)).ok,
    300_000,
    'the backend',
    everyMs,
  );
}

/**
 * Waits until the model-manager backend at `base` has loaded all `n` models (its status; cheap,
 * where listing the models on each try would leave garbage behind in a memory benchmark).
 */
function waitForModels(
  base,
  headers,
  n,
  { timeoutMs = 300_000, everyMs } = {},
) {
  return until(
    async () =>
      (
        await (
          await fetch(`${base}/api/model-manager/status`, { headers })
        ).json()
      ).models === n,
    timeoutMs,
    'the catalog',
    everyMs,
  );
}

/** Signs in as guest; the Backstage token. */
async function guestToken(base) {
  return (await (await fetch(`${base}/api/auth/guest/refresh`)).json())
    .backstageIdentity.token;
}

/** Signs in as guest; the headers that carry the token. */
async function guestHeaders(base) {
  return { Authorization: `Bearer ${await guestToken(base)}` };
}

/** Stops the backend gracefully (SIGTERM), killing it after `killAfterMs`; resolves once it exited. */
async function stopBackend(child, killAfterMs) {
  const exited = new Promise(resolve => child.once('exit', resolve));
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  await exited;
  clearTimeout(killer);
}

module.exports = {
  until,
  writeBenchConfig,
  assertNothingListens,
  spawnBackend,
  waitForBackend,
  waitForModels,
  guestToken,
  guestHeaders,
  stopBackend,
};
