#!/usr/bin/env node
/*
 * Benchmark: the diagnosis of one model that is not Ready (DiagnosisReader, as
 * GET /models/:name/status runs it) against the Kubernetes API test server, warm: its pods (one
 * LIST with KServe's label selector), the namespace's Events (one LIST), the previous run's log
 * of the crashed container (40 lines), then the pure `diagnose` with vLLM's signatures. The
 * namespace holds other models' pods and Events too. Median and p95 of N runs after 5 warm-up runs.
 *
 *   node bench/diagnosis.js [runs=200] [otherPods=50] [events=300]
 */
require('@backstage/cli/config/nodeTransform.cjs');
const path = require('node:path');
const { ConfigReader } = require('@backstage/config');
const { KubeApiTestServer } = require('@model-manager/kube-api-test-server');
const { testClustersConfig } = require('@model-manager/test-harness');
const { loadCatalog } = require('@model-manager/plugin-model-manager-node');
const { signaturesFor } = require('@model-manager/plugin-model-manager-common');
const {
  ClusterRegistry,
  DiagnosisReader,
  ServerSideApplier,
} = require('@model-manager/plugin-model-manager-backend/testUtils');
const { silentLogger: logger } = require('./benchLogger');

const runs = Number(process.argv[2] ?? 200);
const otherPods = Number(process.argv[3] ?? 50);
const eventCount = Number(process.argv[4] ?? 300);
const MODEL = 'qwen2-5-7b-instruct';
const NS = 'models';
const pct = (xs, p) =>
  [...xs].sort((a, b) => a - b)[
    Math.min(xs.length - 1, Math.floor(xs.length * p))
  ];

const pod = (name, model, containerStatuses) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: NS,
    labels: {
      'app.kubernetes.io/part-of': 'llminferenceservice',
      'app.kubernetes.io/name': model,
    },
  },
  spec: { nodeName: 'node-1', containers: [{ name: 'main', image: 'vllm' }] },
  status: { phase: 'Running', containerStatuses },
});

(async () => {
  const kube = await KubeApiTestServer.start({ namespaces: [NS] });
  const catalog = await loadCatalog({
    modelsFile: path.join(__dirname, '..', 'models.yaml'),
  });
  kube.store.put(
    pod(`${MODEL}-0`, MODEL, [
      {
        name: 'main',
        ready: false,
        restartCount: 5,
        containerID: 'c://2',
        state: { waiting: { reason: 'CrashLoopBackOff' } },
        lastState: {
          terminated: {
            reason: 'OOMKilled',
            exitCode: 137,
            containerID: 'c://1',
          },
        },
      },
    ]),
  );
  kube.setPodLog(
    { namespace: NS, pod: `${MODEL}-0`, container: 'main', previous: true },
    `${Array.from({ length: 2000 }, (_, i) => `INFO line ${i}`).join(
      '\n',
    )}\nValueError: To serve at least one request with the model's max seq len (32768), (4.0 GiB KV cache is needed, which is larger than the available KV cache memory (2.0 GiB).\n`,
  );
  for (let i = 0; i < otherPods; i++)
    kube.store.put(
      pod(`other-${i}`, `other-${i}`, [
        { name: 'main', ready: true, restartCount: 0, state: { running: {} } },
      ]),
    );
  for (let i = 0; i < eventCount; i++)
    kube.store.put({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `e-${i}`, namespace: NS },
      involvedObject: {
        kind: 'Pod',
        name: i % 10 === 0 ? `${MODEL}-0` : `other-${i % otherPods}`,
        namespace: NS,
      },
      reason: 'BackOff',
      message: 'Back-off restarting failed container main',
      type: 'Warning',
      count: 1,
      lastTimestamp: new Date(1_800_000_000_000 + i * 1000).toISOString(),
    });
  const clusters = ClusterRegistry.fromConfig(
    new ConfigReader({
      kubernetes: testClustersConfig([{ name: 'bench', url: kube.url }]),
    }),
  );
  const applier = ServerSideApplier.create({ clusters, logger });
  const reader = DiagnosisReader.create({ applier });
  const target = {
    model: MODEL,
    server: { kind: 'LLMInferenceService', name: MODEL },
    objectNames: [MODEL],
    signatures: signaturesFor(catalog.runtimes.vllm.profile),
  };
  const once = async () => {
    const t0 = process.hrtime.bigint();
    const d = (await reader.diagnoseNamespace('bench', NS, [target])).get(
      MODEL,
    );
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (d.findings[0]?.signature !== 'kv-cache-too-small')
      throw new Error(`unexpected diagnosis: ${d.headline}`);
    return ms;
  };
  for (let i = 0; i < 5; i++) await once();
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await once());
  console.log(
    `diagnosis of one model (pods: 1 of ${
      otherPods + 1
    }, events: ${eventCount}, log: 40 of 2001 lines), ${runs} warm runs: median ${pct(
      times,
      0.5,
    ).toFixed(1)} ms, p95 ${pct(times, 0.95).toFixed(1)} ms`,
  );
  await kube.stop();
})().catch(e => {
  console.error(e);
  process.exit(1);
});
