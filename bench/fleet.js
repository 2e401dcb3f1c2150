#!/usr/bin/env node
/*
 * Benchmark: the fleet and a version rollout at fleet scale, end to end through the real portal
 * backend (packages/backend, every plugin) over REST with a guest token, against three
 * Kubernetes API test servers (three clusters, each in its own process; --clusters to change).
 *
 *   1. N targets deployed (N models spread over the clusters), through POST /deploy.
 *   2. GET /fleet: cold (the live reads expired: one LIST per cluster and kind, history, build)
 *      and warm (cached for modelManager.fleet.cacheSeconds), medians.
 *   3. default_version moves in models.yaml (0.24.0 -> 0.19.1, then back, R rounds); once the
 *      catalog has processed it, GET /rollouts/plan; then the "Roll out runtime version" template
 *      runs through the scaffolder REST API (model-manager:rollout, canary 0, concurrency C): wall
 *      time until the task completes, history rows sampled.
 *   4. `kubectl apply --server-side -f` of the same N rendered objects, R rounds, each at the version
 *      the objects do not have (so it changes every object as each rollout did), one kubectl per
 *      cluster run in parallel. The medians of both are compared.
 *
 *   node bench/fleet.js [N=1000] [--concurrency 16] [--latency-ms 0] [--repeat 3] [--prod] [--clusters 3 (1 to 10)] [--target double|real] [--fleet-watch --changes K]
 *
 * --target real: each cluster is a real kube-apiserver v1.34.9 with etcd (TLS, token auth, RBAC;
 * bench/kubeTarget.js, KUBEBUILDER_ASSETS from scripts/envtest-assets.sh) instead of the API test
 * double; kubectl then authenticates with the admin token. With --latency-ms, a TLS proxy in front
 * of each delays the answers. The servers' CPU is that of etcd and kube-apiserver together.
 *
 * --clusters 1 puts every target on one cluster (one API test server, one kubectl), as the issue's
 * "against the same server" reads; 3 (the default) spreads them over three, with one kubectl per
 * cluster in parallel.
 *
 * --latency-ms L delays every answer of the API test servers by L ms, for kubectl and for us alike:
 * what a remote API server adds to each request (network round trip, admission webhooks such as
 * KServe's, the etcd commit). 0 (the default) is a server on the same machine answering at once.
 * --prod runs the backend with NODE_ENV=production, as a deployed portal runs: among other things
 * its logs (the audit events and the task log) are JSON lines instead of the coloured development
 * format. The guest sign-in is allowed outside development for the bench.
 *   BENCH_CPU_PROF=/tmp/prof node bench/fleet.js 300   # the backend's CPU profile of the last round's rollout
 *     alone (started and stopped around it through the inspector protocol) is written there, and
 *     that of one more cold GET /fleet (fleet-cold.cpuprofile), of the 20 warm ones
 *     (fleet-warm.cpuprofile) and of the --changes (changes.cpuprofile)
 * --fleet-only stops after the fleet reads (no rollout, no kubectl).
 * --fleet-watch runs the backend with its fleet watch cache (modelManager.fleet.watch; off here by
 * default, so the cold reads are the LISTs they always measured; see bench/fleet-watch.js).
 */
const { execFile, spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { promisify } = require('node:util');
const zlib = require('node:zlib');

const { sizeArg, takeOption } = require('./benchArgs');
const { pool } = require('./pool');
const { writeVllmCatalog } = require('./catalogFixture');
const {
  kubectlApplyArgs,
  writeKubeconfig,
  writeManifests,
} = require('./kubectl');
const { takeTarget, cpuTree } = require('./kubeTarget');
const {
  guestToken,
  until,
  waitForBackend,
  waitForModels,
} = require('./portalBackend');

require('@backstage/cli/config/nodeTransform.cjs');
const {
  readFleetEvents,
} = require('@model-manager/plugin-model-manager-common');

const run = promisify(execFile);
const argv = process.argv.slice(2);
const target = takeTarget(argv);
const concurrency = Number(takeOption(argv, '--concurrency', 16));
const latencyMs = Number(takeOption(argv, '--latency-ms', 0));
const prod = argv.includes('--prod');
const fleetOnly = argv.includes('--fleet-only');
// The polling path by default (its cold reads LIST every cluster); --fleet-watch: the watch cache.
const fleetWatch = argv.includes('--fleet-watch');
const repeat = Number(takeOption(argv, '--repeat', 3));
const root = path.resolve(__dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-bench-fleet-'));
const clusterCount = Number(takeOption(argv, '--clusters', 3));
const NAMES = ['east', 'west', 'north', 'south', 'central'];
const NAMES2 = ['apac', 'emea', 'latam', 'arctic', 'pacific'];
if (!(clusterCount >= 1 && clusterCount <= 10))
  throw new Error(`--clusters must be 1 to 10, not ${clusterCount}`);
const CLUSTERS = [...NAMES, ...NAMES2].slice(0, clusterCount);
// BENCH_PORT / BENCH_KUBE_PORT: other ports, for a bench beside another one on the same machine.
const KUBE_PORT = Number(process.env.BENCH_KUBE_PORT ?? 17441);
const KUBE_PORTS = CLUSTERS.map((_, i) => KUBE_PORT + i);
// --changes K (with --fleet-watch): K status changes on the clusters, each timed until the
// connected page's GET /fleet/events stream gets it and until its next GET /fleet shows it.
// --settle-seconds S: wait S s after the deploys before the fleet reads (a watch event or bookmark
// after this backend's last write to each cluster lets its reads come from the watches again).
const settleSeconds = Number(takeOption(argv, '--settle-seconds', 0));
const changes = Number(takeOption(argv, '--changes', 0));
// N once every option with a value is out of argv (`--clusters 2 20` is 20 targets, not 2).
const n = sizeArg(argv, 1000);
const servers =
  target === 'real'
    ? `${clusterCount} kube-apiserver${clusterCount > 1 ? 's' : ''} (with etcd)`
    : `${clusterCount} API test server${clusterCount > 1 ? 's' : ''}`;
// BENCH_PORT: another backend port (another bench on the machine holds 7037).
const PORT = Number(process.env.BENCH_PORT ?? 7037);
const base = `http://127.0.0.1:${PORT}`;
const children = [];
const INSPECT_PORT = PORT + 2202;

/** The backend's CPU profiler, driven through the inspector protocol (BENCH_CPU_PROF). */
async function profiler() {
  const targets = await (
    await fetch(`http://127.0.0.1:${INSPECT_PORT}/json/list`)
  ).json();
  const WebSocket = require('ws');
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let id = 0;
  const pending = new Map();
  socket.on('message', data => {
    const message = JSON.parse(String(data));
    pending.get(message.id)?.(message.result);
    pending.delete(message.id);
  });
  const send = (method, params = {}) =>
    new Promise(resolve => {
      pending.set(++id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 1000 });
  return {
    start: () => send('Profiler.start'),
    stop: async file => {
      const { profile } = await send('Profiler.stop');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(profile));
      socket.close();
      console.log(`  the backend's CPU profile: ${file}`);
    },
  };
}

/** CPU seconds (user + system) a process has used so far, from /proc. */
const cpu = pid => {
  const f = fs
    .readFileSync(`/proc/${pid}/stat`, 'utf8')
    .split(') ')[1]
    .split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
/**
 * GET `url` asking for gzip, as a browser does; resolves with the body as it arrived (not
 * decoded) once its last byte is in. Refuses an answer that is not 200 or not gzip.
 */
function receive(url, headers) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { ...headers, 'Accept-Encoding': 'gzip' } }, res => {
        const chunks = [];
        res.on('data', c => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          if (
            res.statusCode !== 200 ||
            res.headers['content-encoding'] !== 'gzip'
          )
            reject(
              new Error(
                `GET ${url}: ${res.statusCode} ${
                  res.headers['content-encoding'] ?? 'not encoded'
                }`,
              ),
            );
          else resolve(Buffer.concat(chunks));
        });
      })
      .on('error', reject);
  });
}

const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = t0 => Number(process.hrtime.bigint() - t0) / 1e6;
const clusterOf = i => CLUSTERS[i % CLUSTERS.length];

/**
 * Starts a process whose output goes to a file (in BENCH_LOG_DIR, else the bench's temporary
 * folder), as a container runtime's log driver takes it: a pipe read by this busy script would
 * block the backend's synchronous stdout writes and count as its time. Resolves once `ready(output
 * so far)`.
 */
function start(cmd, args, options, ready) {
  const logDir = process.env.BENCH_LOG_DIR ?? dir;
  fs.mkdirSync(logDir, { recursive: true });
  const logFile = path.join(
    logDir,
    `${path.basename(args.at(-1))}-${children.length}.log`,
  );
  const fd = fs.openSync(logFile, 'w');
  const child = spawn(cmd, args, { stdio: ['ignore', fd, fd], ...options });
  fs.closeSync(fd);
  children.push(child);
  child.logFile = logFile;
  const output = () => fs.readFileSync(logFile, 'utf8');
  return new Promise((resolve, reject) => {
    child.once('exit', code =>
      reject(new Error(`${cmd} exited ${code}:\n${output().slice(-3000)}`)),
    );
    const check = setInterval(() => {
      const out = output();
      if (ready(out)) {
        clearInterval(check);
        child.url = /READY (\S+)/.exec(out)?.[1];
        resolve(child);
      }
    }, 100);
  });
}

// Every wait polls every 100 ms: some are timed (the catalog processing a promotion).
const POLL_MS = 100;

/**
 * Where the last rollout task's wall time went, from the timestamps of the backend's log (the task
 * log's own are whole seconds on SQLite): the plan, each batch (its progress lines are one event),
 * the readiness read at the end, the task's completion as the bench's status poll saw it.
 */
function taskPhases(logFile) {
  const lines = fs
    .readFileSync(logFile, 'utf8')
    // eslint-disable-next-line no-control-regex
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n');
  const at = line =>
    Date.parse(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z/.exec(line)?.[0]);
  const first = lines.findLastIndex(l =>
    l.includes('"POST /api/scaffolder/v2/tasks '),
  );
  if (first < 0) return 'no task in the log';
  const phases = [];
  let previous = at(lines[first]);
  let lastPoll;
  for (const line of lines.slice(first)) {
    const t = at(line);
    if (Number.isNaN(t)) continue;
    const label = / scaffolder .*info: plan for runtime/.test(line)
      ? 'plan'
      : / scaffolder .*info: \d+\/\d+ /.test(line)
      ? 'batch'
      : / scaffolder .*info: Ready now/.test(line)
      ? 'readiness'
      : undefined;
    if (/"GET \/api\/scaffolder\/v2\/tasks\/[^/ ]+ HTTP/.test(line))
      lastPoll = t;
    if (!label) continue;
    phases.push(`${label} ${((t - previous) / 1000).toFixed(2)}`);
    previous = t;
  }
  if (lastPoll > previous)
    phases.push(`completion seen ${((lastPoll - previous) / 1000).toFixed(2)}`);
  return `${phases.join(', ')} (s)`;
}

const load = () =>
  `load average ${os
    .loadavg()
    .map(l => l.toFixed(1))
    .join(' ')}`;
// The catalog's waits grow with N (its ingestion and each promotion's processing are per entity:
// 190 s to 20 min for 10,000 models by load, docs/performance.md): at least 5 minutes, 0.2 s a model.
const catalogWaitMs = Math.max(300_000, n * 200);
const percentile = (xs, p) =>
  [...xs].sort((a, b) => a - b)[
    Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)
  ];

/**
 * Issue 27's "time from a status change on a cluster to the change reaching a connected page": a
 * page's stream (GET /fleet/events with the guest token, read as the page's `readFleetEvents`
 * reads it) is open; `count` times, one model's LLMInferenceService gets KServe's Ready=True
 * through its cluster's API (PATCH of the status subresource, as the KServe controller writes it),
 * and the bench times (1) until the stream's `fleet` event names that cluster, (2) until the reads
 * the pages then send show the target Ready: the Serving tab's GET /models/:name/fleet, and the
 * Deployments page's GET /fleet?cluster= of the cluster the event named. One change at a time, 150 ms apart (more than
 * the stream's 100 ms debounce, so each is its own event).
 */
async function changeToPage(token, kubeUrls, models, count) {
  // The page's own reader (-common's readFleetEvents, as the Deployments page uses it).
  const waiting = [];
  let opened;
  let refused;
  const connected = new Promise((resolve, reject) => {
    opened = resolve;
    refused = reject;
  });
  const stop = readFleetEvents({
    open: async signal => {
      const res = await fetch(`${base}/api/model-manager/fleet/events`, {
        headers: { Authorization: `Bearer ${token}` },
        signal,
      });
      if (res.ok) opened();
      else refused(new Error(`GET /fleet/events: ${res.status}`));
      return res;
    },
    onChange: clusters => {
      const at = process.hrtime.bigint();
      for (const w of [...waiting])
        if (clusters.includes(w.cluster)) {
          waiting.splice(waiting.indexOf(w), 1);
          w.resolve(at);
        }
    },
  });
  await connected;
  const toStream = [];
  const toPage = [];
  const toTable = [];
  const tableBytes = [];
  const step = Math.max(1, Math.floor(models.length / count));
  for (let i = 0; i < count; i++) {
    const m = (i * step) % models.length;
    const model = models[m];
    const c = m % CLUSTERS.length;
    const pushed = new Promise(resolve =>
      waiting.push({ cluster: CLUSTERS[c], resolve }),
    );
    const t0 = process.hrtime.bigint();
    const patched = await fetch(
      `${kubeUrls[c]}/apis/serving.kserve.io/v1alpha2/namespaces/models/llminferenceservices/${model}/status`,
      {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body: JSON.stringify({
          status: {
            conditions: [
              {
                type: 'Ready',
                status: 'True',
                lastTransitionTime: new Date().toISOString(),
              },
            ],
          },
        }),
      },
    );
    if (!patched.ok)
      throw new Error(
        `PATCH ${model} status: ${patched.status} ${await patched.text()}`,
      );
    const t1 = await pushed;
    toStream.push(Number(t1 - t0) / 1e6);
    // The pages read at once on the push: the Serving tab its model's targets, the Deployments
    // page the cluster the push named (useLiveFleet).
    const readUntilReady = async url => {
      for (;;) {
        const res = await fetch(`${base}/api/model-manager${url}`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        const text = await res.text();
        const item = JSON.parse(text).items.find(
          t => t.model === model && t.cluster === CLUSTERS[c],
        );
        if (item?.state === 'Ready') return text.length;
      }
    };
    await Promise.all([
      readUntilReady(`/models/${model}/fleet`).then(() => toPage.push(ms(t0))),
      readUntilReady(`/fleet?cluster=${CLUSTERS[c]}`).then(bytes => {
        toTable.push(ms(t0));
        tableBytes.push(bytes);
      }),
    ]);
    await new Promise(r => setTimeout(r, 150));
  }
  stop();
  const line = xs =>
    `p50 ${percentile(xs, 50).toFixed(0)} ms, p95 ${percentile(xs, 95).toFixed(
      0,
    )} ms, max ${Math.max(...xs).toFixed(0)} ms`;
  console.log(
    `a status change on a cluster (PATCH of KServe's Ready) -> the page's /fleet/events stream, ${count} changes: ${line(
      toStream,
    )}`,
  );
  console.log(
    `  -> and the Serving tab's next GET /models/:name/fleet shows it: ${line(
      toPage,
    )}`,
  );
  console.log(
    `  -> and the Deployments page's next read of that cluster (GET /fleet?cluster=, ${(
      median(tableBytes) / 1e6
    ).toFixed(2)} MB) shows it: ${line(toTable)} (${load()})`,
  );
}

(async () => {
  // The catalog: N vLLM models on the default version.
  const { models, modelsFile } = writeVllmCatalog(dir, n);
  console.log(
    `starting ${servers}${
      latencyMs ? ` (each answer delayed ${latencyMs} ms)` : ''
    } and the portal backend (${n} models) ...`,
  );
  const kubes = await Promise.all(
    KUBE_PORTS.map(port =>
      start(
        process.execPath,
        [
          path.join(
            __dirname,
            target === 'real'
              ? 'kube-envtest-child.js'
              : 'kube-server-child.js',
          ),
        ],
        {
          env: {
            ...process.env,
            KUBE_PORT: String(port),
            KUBE_LATENCY_MS: String(latencyMs),
          },
        },
        out => out.includes('READY'),
      ),
    ),
  );
  const kubeUrls = kubes.map(k => k.url);
  const clusters = CLUSTERS.map(
    (name, i) =>
      `        - name: ${name}\n          url: ${kubeUrls[i]}\n          authProvider: serviceAccount\n          serviceAccountToken: admin-token\n          skipTLSVerify: true\n          skipMetricsLookup: true\n`,
  ).join('');
  fs.writeFileSync(
    path.join(dir, 'bench.yaml'),
    `app:\n  baseUrl: ${base}\n${
      prod
        ? `auth:\n  providers:\n    guest:\n      dangerouslyAllowOutsideDevelopment: true\n`
        : ''
    }backend:\n  baseUrl: ${base}\n  listen:\n    port: ${PORT}\n    host: 127.0.0.1\n` +
      `catalog:\n  providers:\n    modelManager:\n      apiEntities: false\n` +
      `kubernetes:\n  clusterLocatorMethods:\n    - type: config\n      clusters:\n${clusters}` +
      `modelManager:\n  modelsFile: ${modelsFile}\n  runtimesDir: ${dir}/runtimes\n  watch: true\n  fleet:\n    cacheSeconds: 5\n    watch: ${fleetWatch}\n`,
  );

  const backend = await start(
    process.execPath,
    [
      ...(process.env.BENCH_CPU_PROF
        ? [`--inspect=127.0.0.1:${INSPECT_PORT}`]
        : []),
      '-r',
      '@backstage/cli/config/nodeTransform.cjs',
      'src/index.ts',
      '--config',
      '../../app-config.yaml',
      '--config',
      path.join(dir, 'bench.yaml'),
    ],
    {
      cwd: path.join(root, 'packages/backend'),
      env: {
        ...process.env,
        NODE_ENV: prod ? 'production' : 'development',
        MODEL_MANAGER_NO_TEST_CLUSTER: '1',
      },
    },
    () => true,
  );
  await waitForBackend(base, POLL_MS);
  const token = await guestToken(base);
  const headers = {
    Authorization: `Bearer ${token}`,
    'Content-Type': 'application/json',
  };
  /** Reads the task's event stream (`GET .../eventstream`, SSE) until `completion`. */
  const waitForCompletion = async taskId => {
    const res = await fetch(
      `${base}/api/scaffolder/v2/tasks/${taskId}/eventstream`,
      { headers, signal: AbortSignal.timeout(1_800_000) },
    );
    if (!res.ok) throw new Error(`the task's event stream: ${res.status}`);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done)
        throw new Error('the task event stream ended before completion');
      text += value;
      if (/^event: completion$/m.test(text)) {
        await reader.cancel();
        return;
      }
      // Only the unfinished last event is kept.
      text = text.slice(text.lastIndexOf('\n\n') + 1);
    }
  };
  const api = async (method, url, body) => {
    const res = await fetch(`${base}/api${url}`, {
      method,
      headers,
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok)
      throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 500)}`);
    return JSON.parse(text);
  };
  await waitForModels(base, headers, n, {
    timeoutMs: catalogWaitMs,
    everyMs: POLL_MS,
  });
  await until(
    async () =>
      !!(await api(
        'GET',
        '/catalog/entities/by-name/template/default/rollout-runtime-version',
      )),
    catalogWaitMs,
    'the rollout template in the catalog',
    POLL_MS,
  );

  let t0 = process.hrtime.bigint();
  await pool(models, concurrency, (model, i) =>
    api('POST', `/model-manager/models/${model}/deploy`, {
      cluster: clusterOf(i),
      namespace: 'models',
    }),
  );
  console.log(
    `deployed ${n} targets over ${
      CLUSTERS.length
    } clusters through POST /deploy (${concurrency} at once): ${(
      ms(t0) / 1000
    ).toFixed(1)} s`,
  );

  if (settleSeconds > 0)
    await new Promise(r => setTimeout(r, settleSeconds * 1000));
  // Cold: the live reads have expired (cacheSeconds 5), so each sample LISTs every cluster again.
  const cold = [];
  let fleet;
  for (let i = 0; i < 3; i++) {
    await new Promise(r => setTimeout(r, 5200));
    t0 = process.hrtime.bigint();
    fleet = await api('GET', '/model-manager/fleet');
    cold.push(ms(t0));
  }
  if (process.env.BENCH_CPU_PROF) {
    // One more cold read, profiled alone.
    await new Promise(r => setTimeout(r, 5200));
    const prof = await profiler();
    await prof.start();
    t0 = process.hrtime.bigint();
    await api('GET', '/model-manager/fleet');
    const profiled = ms(t0);
    await prof.stop(
      path.join(process.env.BENCH_CPU_PROF, 'fleet-cold.cpuprofile'),
    );
    console.log(`  a profiled cold GET /fleet: ${profiled.toFixed(0)} ms`);
  }
  const warmProf = process.env.BENCH_CPU_PROF ? await profiler() : undefined;
  await warmProf?.start();
  const warm = [];
  for (let i = 0; i < 20; i++) {
    t0 = process.hrtime.bigint();
    await api('GET', '/model-manager/fleet');
    warm.push(ms(t0));
  }
  await warmProf?.stop(
    path.join(process.env.BENCH_CPU_PROF ?? '', 'fleet-warm.cpuprofile'),
  );
  const bytes = JSON.stringify(fleet).length;
  console.log(
    `GET /fleet with ${fleet.items.length} targets (${(bytes / 1e6).toFixed(
      2,
    )} MB): cold median ${median(cold).toFixed(0)} ms (${cold
      .map(x => x.toFixed(0))
      .join(', ')}); warm median ${median(warm).toFixed(1)} ms (min ${Math.min(
      ...warm,
    ).toFixed(1)}, max ${Math.max(...warm).toFixed(1)})`,
  );
  // The same warm reads split in two: the answer as it arrives (gzip, not decoded: what the
  // backend and the connection take), then the client's own work on it (gunzip and JSON.parse).
  const received = [];
  const decoded = [];
  let wireBytes = 0;
  for (let i = 0; i < 20; i++) {
    t0 = process.hrtime.bigint();
    const body = await receive(`${base}/api/model-manager/fleet`, headers);
    received.push(ms(t0));
    wireBytes = body.length;
    const t1 = process.hrtime.bigint();
    JSON.parse(zlib.gunzipSync(body).toString());
    decoded.push(ms(t1));
  }
  console.log(
    `  warm, split: the answer received (${(wireBytes / 1e6).toFixed(
      2,
    )} MB gzip) median ${median(received).toFixed(1)} ms (min ${Math.min(
      ...received,
    ).toFixed(1)}, max ${Math.max(...received).toFixed(
      1,
    )}); then gunzip + JSON.parse median ${median(decoded).toFixed(1)} ms`,
  );
  // A page asking again holds the answer and its ETag: the browser's fetch revalidates
  // (If-None-Match), and an unchanged fleet is a 304 with no body.
  const held = await fetch(`${base}/api/model-manager/fleet`, { headers });
  const etag = held.headers.get('etag');
  await held.arrayBuffer();
  if (etag) {
    const revalidated = [];
    let notModified = 0;
    for (let i = 0; i < 20; i++) {
      t0 = process.hrtime.bigint();
      // A browser's cache sends If-None-Match itself. Set by hand, the Fetch standard (HTTP-
      // network-or-cache fetch, steps 15 and 17) turns the request into `no-store` and adds
      // `Cache-Control: no-cache`, which a server must answer in full; an explicit Cache-Control
      // (what Chrome sends when revalidating on reload) keeps it a revalidation.
      const res = await fetch(`${base}/api/model-manager/fleet`, {
        headers: {
          ...headers,
          'If-None-Match': etag,
          'Cache-Control': 'max-age=0',
        },
      });
      await res.arrayBuffer();
      revalidated.push(ms(t0));
      if (res.status === 304) notModified++;
    }
    console.log(
      `  warm and revalidated (If-None-Match, as the page's fetch sends it): median ${median(
        revalidated,
      ).toFixed(1)} ms (max ${Math.max(...revalidated).toFixed(
        1,
      )}); ${notModified}/20 answered 304`,
    );
  } else console.log('  (no ETag on GET /fleet: no revalidation measured)');
  t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: 10 }, () =>
      api('GET', '/model-manager/fleet?state=NotReady&runtime=vllm'),
    ),
  );
  console.log(
    `10 concurrent filtered GET /fleet (warm): ${ms(t0).toFixed(
      0,
    )} ms in all (${load()})`,
  );
  if (changes > 0) {
    // BENCH_CPU_PROF: the backend's profile over the changes (changes.cpuprofile).
    const prof = process.env.BENCH_CPU_PROF ? await profiler() : undefined;
    await prof?.start();
    await changeToPage(token, kubeUrls, models, changes);
    await prof?.stop(
      path.join(process.env.BENCH_CPU_PROF ?? '', 'changes.cpuprofile'),
    );
  }
  if (fleetOnly) return;

  // The objects at the version the catalog resolves now, for kubectl.
  const render = () =>
    pool(models, concurrency, (model, i) =>
      api('POST', `/model-manager/models/${model}/render`, {
        namespace: 'models',
      }).then(r => ({ cluster: clusterOf(i), items: r.items })),
    );
  const VERSIONS = ['0.24.0', '0.19.1'];
  const rendered = { [VERSIONS[0]]: await render() };
  // The backend's main thread (its JavaScript) from the scheduler: seconds on a CPU, and seconds
  // it was ready to run but waited for a CPU (/proc/PID/task/PID/schedstat, fields 1 and 2, ns).
  const mainThread = () => {
    const [onCpu, waiting] = fs
      .readFileSync(
        `/proc/${backend.pid}/task/${backend.pid}/schedstat`,
        'utf8',
      )
      .split(' ')
      .map(Number);
    return { onCpu: onCpu / 1e9, waiting: waiting / 1e9 };
  };
  const usage = () => ({
    backend: cpu(backend.pid),
    kube: kubes.reduce((sum, k) => sum + cpuTree(k.pid), 0),
    main: mainThread(),
  });
  const ours = [];
  for (let round = 0; round < repeat; round++) {
    const from = VERSIONS[round % 2];
    const to = VERSIONS[(round + 1) % 2];
    // Promote: move default_version, then plan and roll out.
    fs.writeFileSync(
      modelsFile,
      fs
        .readFileSync(modelsFile, 'utf8')
        .replace(`default_version: "${from}"`, `default_version: "${to}"`),
    );
    await until(
      async () =>
        (await api('GET', '/model-manager/runtimes/vllm')).defaultVersion ===
        to,
      60_000,
      'the catalog reload',
      POLL_MS,
    );
    // The promotion changes every model's entity (its server-version annotation): let the catalog
    // finish processing and stitching them first, as it has long before anyone starts a rollout
    // after merging a models.yaml change. Otherwise the rollout's time includes the catalog's work.
    t0 = process.hrtime.bigint();
    await until(
      async () =>
        (
          await api(
            'GET',
            `/catalog/entities/by-query?limit=1&filter=${encodeURIComponent(
              `kind=component,metadata.annotations.model-manager.io/server-version=${from}`,
            )}`,
          )
        ).totalItems === 0,
      2 * catalogWaitMs,
      'the catalog to process the promotion',
      POLL_MS,
    );
    console.log(
      `round ${
        round + 1
      }: default_version ${from} -> ${to}; the catalog processed it (every model entity on ${to}) ${(
        ms(t0) / 1000
      ).toFixed(1)} s after the runtime showed it`,
    );
    t0 = process.hrtime.bigint();
    const plan = await api('GET', '/model-manager/rollouts/plan?runtime=vllm');
    console.log(
      `  GET /rollouts/plan: ${plan.moves.length} to move, ${
        plan.stays.length
      } staying: ${ms(t0).toFixed(0)} ms; ${(
        JSON.stringify(plan).length / 1e6
      ).toFixed(2)} MB (${(
        JSON.stringify(
          plan.moves.map(({ changes: _c, preflight: _p, ...m }) => m),
        ).length / 1e6
      ).toFixed(2)} MB of moves without changes and preflight, ${(
        JSON.stringify(plan.moves.map(({ changes: _c, ...m }) => m)).length /
        1e6
      ).toFixed(2)} MB without changes alone)`,
    );

    const prof =
      process.env.BENCH_CPU_PROF && round === repeat - 1
        ? await profiler()
        : undefined;
    await prof?.start();
    const before0 = usage();
    t0 = process.hrtime.bigint();
    const task = await api('POST', '/scaffolder/v2/tasks', {
      templateRef: 'template:default/rollout-runtime-version',
      values: {
        runtime: 'vllm',
        canary: 0,
        concurrency,
        maxFailures: 0,
        force: false,
        dryRun: false,
      },
    });
    // Waits as the task page does: on the task's event stream until its `completion` event. (A
    // status poll every 100 ms made the scaffolder parse the task's whole state, the plan's
    // checkpoint included, 600 times: 7 s of the backend's CPU at 10,000 targets.)
    await waitForCompletion(task.id);
    const rollout = ms(t0);
    const { status } = await api('GET', `/scaffolder/v2/tasks/${task.id}`);
    const rolloutCpu = usage();
    await prof?.stop(
      path.join(process.env.BENCH_CPU_PROF ?? '', 'rollout.cpuprofile'),
    );
    if (status !== 'completed') {
      const events = await api('GET', `/scaffolder/v2/tasks/${task.id}/events`);
      throw new Error(
        `rollout ${status}:\n${events
          .filter(e => e.type === 'log')
          .map(e => e.body.message)
          .slice(-20)
          .join('\n')}`,
      );
    }
    console.log(
      `  the task's phases (from the backend's log): ${taskPhases(
        backend.logFile,
      )}`,
    );
    const after = await api('GET', `/model-manager/fleet?version=${to}`);
    const rows = await pool(models.slice(0, 50), 8, m =>
      api('GET', `/model-manager/models/${m}/deployments`),
    );
    ours.push(rollout);
    console.log(
      `  rollout of ${
        plan.moves.length
      } targets through the scaffolder (concurrency ${concurrency}): ${(
        rollout / 1000
      ).toFixed(1)} s; ${after.items.length} targets now on ${to}; history: ${
        rows.filter(
          r =>
            r.items[0]?.action === 'rollout' && r.items[0].serverVersion === to,
        ).length
      }/50 sampled models have a rollout row to ${to} (${load()})`,
    );
    console.log(
      `  CPU during the rollout: backend ${(
        rolloutCpu.backend - before0.backend
      ).toFixed(1)} s, the ${servers} ${(
        rolloutCpu.kube - before0.kube
      ).toFixed(1)} s; the backend's main thread: on a CPU ${(
        rolloutCpu.main.onCpu - before0.main.onCpu
      ).toFixed(1)} s, ready but waiting for a CPU ${(
        rolloutCpu.main.waiting - before0.main.waiting
      ).toFixed(1)} s (of ${(rollout / 1000).toFixed(1)} s)`,
    );
    rendered[to] ??= await render();
  }

  // kubectl: the same objects applied server-side per cluster, each round at the version the
  // objects do not have now (so it changes every object, as each rollout did).
  const kubeconfig = path.join(dir, 'kubeconfig');
  const filesOf = version =>
    CLUSTERS.map((cluster, c) => {
      const file = path.join(dir, `${cluster}-${version}.yaml`);
      writeManifests(
        file,
        rendered[version]
          .filter(b => b.cluster === cluster)
          .flatMap(b => b.items.map(o => o.manifest)),
      );
      writeKubeconfig(
        `${kubeconfig}-${cluster}`,
        kubeUrls[c],
        target === 'real' ? 'admin-token' : undefined,
      );
      return { cluster, file };
    });
  const theirs = [];
  for (let round = 0; round < repeat; round++) {
    const version = VERSIONS[(repeat + 1 + round) % 2];
    const files = filesOf(version);
    const before0 = usage();
    t0 = process.hrtime.bigint();
    // kubectl's own CPU (user + system) from /usr/bin/time, on the last line of its stderr.
    const kubectlOwn = await Promise.all(
      files.map(({ cluster, file }) =>
        run(
          '/usr/bin/time',
          [
            '-f',
            'CPU %U %S',
            'kubectl',
            ...kubectlApplyArgs(`${kubeconfig}-${cluster}`, file),
          ],
          { maxBuffer: 64 << 20 },
        ).then(({ stderr }) => {
          const [, user, system] = /CPU (\S+) (\S+)\s*$/.exec(stderr) ?? [];
          return Number(user) + Number(system);
        }),
      ),
    );
    const kubectl = ms(t0);
    const kubectlCpu = usage();
    theirs.push(kubectl);
    console.log(
      `kubectl apply --server-side -f of the same ${n} objects at ${version} (${
        clusterCount > 1
          ? `${clusterCount} clusters in parallel`
          : 'one cluster'
      }, no history): ${(kubectl / 1000).toFixed(1)} s (${load()})`,
    );
    console.log(
      `  CPU during kubectl: the ${servers} ${(
        kubectlCpu.kube - before0.kube
      ).toFixed(1)} s; kubectl itself ${kubectlOwn
        .reduce((a, b) => a + b, 0)
        .toFixed(1)} s`,
    );
  }
  const seconds = xs => xs.map(x => (x / 1000).toFixed(1)).join(', ');
  console.log(
    `rollout median ${(median(ours) / 1000).toFixed(1)} s (${seconds(
      ours,
    )}); kubectl median ${(median(theirs) / 1000).toFixed(1)} s (${seconds(
      theirs,
    )}); ratio kubectl / ours: ${(median(theirs) / median(ours)).toFixed(2)}x`,
  );
})()
  .catch(e => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => {
    // A real kube-apiserver's starter stops it and etcd on SIGTERM (SIGKILL would orphan them).
    for (const c of children)
      c.kill(c.url?.startsWith('https:') ? 'SIGTERM' : 'SIGKILL');
  });
