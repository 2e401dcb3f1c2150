#!/usr/bin/env node
/*
 * Benchmark: the fleet watch cache (plugins/model-manager-backend/src/fleet/watch) against
 * Kubernetes API test servers in this process, beside the LIST it replaces:
 *
 *   1. C clusters with N managed LLMInferenceServices in all (rendered-size objects, labelled
 *      app.kubernetes.io/managed-by=model-manager), seeded into the servers' stores.
 *   2. The LIST a cold /fleet does today (one per cluster and kind), median of 5.
 *   3. The watches' start (their LIST), then the heap they hold (after GC).
 *   4. From a status change on a cluster to the cache holding it and a subscriber told (what
 *      GET /fleet/events pushes): p50 / p95 of R changes.
 *   5. API requests while idle for S seconds: the watches (0 expected) vs polling /fleet every 5 s
 *      with the 5 s cache (one LIST per cluster and kind per poll).
 *
 *   node --expose-gc bench/fleet-watch.js [N=10000] [--clusters 10] [--changes 200] [--idle-seconds 60]
 */
require('@backstage/cli/config/nodeTransform.cjs');
const path = require('node:path');
const { KubeConfig } = require('@kubernetes/client-node');
const {
  ADMIN_TOKEN,
  KubeApiTestServer,
} = require('@model-manager/kube-api-test-server');

const root = path.resolve(__dirname, '..');
const { FleetWatches } = require(path.join(
  root,
  'plugins/model-manager-backend/src/fleet/watch',
));

const argv = process.argv.slice(2);
const flag = (name, fallback) => {
  const at = argv.indexOf(name);
  return at >= 0 ? Number(argv.splice(at, 2)[1]) : fallback;
};
const clusters = flag('--clusters', 10);
const changes = flag('--changes', 200);
const idleSeconds = flag('--idle-seconds', 60);
const n = Number(argv.find(a => /^\d+$/.test(a)) ?? 10000);
const KIND = {
  apiVersion: 'serving.kserve.io/v1alpha2',
  kind: 'LLMInferenceService',
};
const SELECTOR = 'app.kubernetes.io/managed-by=model-manager';
const ms = t0 => Number(process.hrtime.bigint() - t0) / 1e6;
const pct = (xs, p) =>
  [...xs].sort((a, b) => a - b)[
    Math.min(xs.length - 1, Math.floor(xs.length * p))
  ];
const heap = () => {
  global.gc?.();
  global.gc?.();
  return process.memoryUsage().heapUsed;
};

/** A managed LLMInferenceService about the size model-manager renders (2-3 KB). */
const object = i => ({
  ...KIND,
  metadata: {
    name: `model-${i}`,
    namespace: 'models',
    labels: {
      'app.kubernetes.io/managed-by': 'model-manager',
      'app.kubernetes.io/name': `model-${i}`,
      'model-manager.io/runtime': 'vllm',
    },
    annotations: { 'model-manager.io/server-version': '0.24.0' },
  },
  spec: {
    model: { uri: `hf://org/model-${i}`, name: `org/model-${i}` },
    replicas: 1,
    template: {
      containers: [
        {
          name: 'main',
          image: 'docker.io/vllm/vllm-openai-cpu:v0.24.0',
          args: ['--max-model-len', '8192', '--gpu-memory-utilization', '0.9'],
          env: Array.from({ length: 8 }, (_, k) => ({
            name: `VLLM_SETTING_${k}`,
            value: `value-${k}-${'x'.repeat(40)}`,
          })),
          resources: {
            requests: { cpu: '4', memory: '16Gi' },
            limits: { cpu: '8', memory: '32Gi' },
          },
        },
      ],
    },
  },
});

(async () => {
  console.log(
    `${clusters} API test servers, ${n} managed LLMInferenceServices in all ...`,
  );
  const servers = await Promise.all(
    Array.from({ length: clusters }, () =>
      KubeApiTestServer.start({ namespaces: ['models'] }),
    ),
  );
  for (let i = 0; i < n; i++) servers[i % clusters].store.put(object(i));
  const byName = Object.fromEntries(servers.map((s, i) => [`c${i}`, s]));
  const kubeConfig = name => {
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name, server: byName[name].url, skipTLSVerify: true }],
      users: [{ name: 'u', token: ADMIN_TOKEN }],
      contexts: [{ name, cluster: name, user: 'u' }],
      currentContext: name,
    });
    return kc;
  };
  const names = Object.keys(byName);

  // What a cold /fleet reads today: a LIST per cluster (and kind), all in parallel.
  const listAll = () =>
    Promise.all(
      names.map(async name => {
        const res = await fetch(
          `${
            byName[name].url
          }/apis/serving.kserve.io/v1alpha2/llminferenceservices?labelSelector=${encodeURIComponent(
            SELECTOR,
          )}&limit=500`,
          { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } },
        );
        let body = await res.json();
        let count = body.items.length;
        while (body.metadata.continue) {
          body = await (
            await fetch(
              `${
                byName[name].url
              }/apis/serving.kserve.io/v1alpha2/llminferenceservices?labelSelector=${encodeURIComponent(
                SELECTOR,
              )}&limit=500&continue=${encodeURIComponent(
                body.metadata.continue,
              )}`,
              { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } },
            )
          ).json();
          count += body.items.length;
        }
        return count;
      }),
    );
  const lists = [];
  for (let i = 0; i < 5; i++) {
    const t0 = process.hrtime.bigint();
    await listAll();
    lists.push(ms(t0));
  }
  console.log(
    `the LIST of every cluster (what a cold /fleet reads): median ${pct(
      lists,
      0.5,
    ).toFixed(0)} ms`,
  );

  const before = heap();
  const watches = FleetWatches.create({
    clusters: { kubeConfig },
    labelSelector: SELECTOR,
  });
  let t0 = process.hrtime.bigint();
  await Promise.all(names.map(c => watches.started(c, [KIND])));
  const held = names.reduce(
    (sum, c) => sum + (watches.read(c, [KIND])?.objects.length ?? 0),
    0,
  );
  console.log(
    `watches live on ${clusters} clusters (their LIST included): ${ms(
      t0,
    ).toFixed(0)} ms; ${held} objects held`,
  );
  console.log(
    `heap held by the watch cache: +${((heap() - before) / 2 ** 20).toFixed(
      1,
    )} MiB`,
  );
  t0 = process.hrtime.bigint();
  for (let i = 0; i < 20; i++) names.forEach(c => watches.read(c, [KIND]));
  console.log(
    `a read of every cluster from the live cache: ${(ms(t0) / 20).toFixed(
      3,
    )} ms`,
  );

  // From a status change on a cluster to the cache holding it (and subscribers told).
  const latencies = [];
  for (let i = 0; i < changes; i++) {
    const cluster = i % clusters;
    const name = `model-${cluster + clusters * (i % Math.floor(n / clusters))}`;
    const seen = new Promise(resolve => {
      const off = watches.subscribe(() => {
        const o = watches.get(`c${cluster}`, {
          ...KIND,
          name,
          namespace: 'models',
        });
        if (o?.status?.observedGeneration === i + 1) {
          off();
          resolve();
        }
      });
    });
    const start = process.hrtime.bigint();
    servers[cluster].store.setStatus(
      { ...KIND, name, namespace: 'models' },
      { observedGeneration: i + 1 },
    );
    await seen;
    latencies.push(ms(start));
  }
  console.log(
    `status change -> cache (${changes} changes): p50 ${pct(
      latencies,
      0.5,
    ).toFixed(1)} ms, p95 ${pct(latencies, 0.95).toFixed(1)} ms, max ${Math.max(
      ...latencies,
    ).toFixed(1)} ms`,
  );

  // Idle: requests the clusters get in idleSeconds.
  servers.forEach(s => s.resetRequests());
  await new Promise(r => setTimeout(r, idleSeconds * 1000));
  const idle = servers.reduce((sum, s) => sum + s.requests.length, 0);
  console.log(
    `idle ${idleSeconds} s with the watches live: ${idle} requests to the API servers (${(
      (idle * 60) /
      idleSeconds
    ).toFixed(0)} per minute); polling /fleet every 5 s with the 5 s cache: ${
      (60 / 5) * clusters
    } LISTs per minute (one per cluster and kind per poll; ${Math.ceil(
      n / clusters / 500,
    )} pages each)`,
  );
  watches.stop();
  await Promise.all(servers.map(s => s.stop()));
})().catch(e => {
  console.error(e);
  process.exit(1);
});
