#!/usr/bin/env node
/*
 * Benchmark: the backend's CPU to build the fleet (buildFleet: each target's state, sync, drift,
 * outdated, endpoint) from N targets' live objects and history rows, in this process, without
 * the API server and the diagnosis: the part of a cold `/fleet` the per-target memo
 * (fleet/targetMemo.ts) saves. Each round builds from the same inputs (as the reads after a cache
 * period find them when nothing changed), then once after every target's object changed (a new
 * resourceVersion, as after a rollout). CPU time (process.cpuUsage), medians; the machine's load
 * moves wall time far more than CPU time.
 *
 *   node bench/fleet-build.js [N=1000] [rounds=7]
 */
require('@backstage/cli/config/nodeTransform.cjs');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { writeVllmCatalog } = require('./catalogFixture');
const { loadCatalog } = require('@model-manager/plugin-model-manager-node');
const {
  buildFleet,
  makeRenderer,
  TargetMemo,
} = require('@model-manager/plugin-model-manager-backend/testUtils');

const n = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 7);
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const cpuMs = fn => {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};

(async () => {
  // The catalog of bench/fleet.js: N vLLM models on the default version.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-bench-build-'));
  const { models, modelsFile } = writeVllmCatalog(dir, n);
  const catalog = await loadCatalog({ modelsFile });
  const render = makeRenderer(catalog);
  // What a deploy of each model recorded, and its objects as the server keeps them (uid,
  // resourceVersion, managedFields, a status KServe has not made Ready).
  const records = models.map((model, i) => {
    const r = render(model, 'models', {});
    if ('error' in r) throw new Error(r.error);
    return {
      id: i + 1,
      revision: 1,
      model,
      cluster: 'east',
      namespace: 'models',
      action: 'deploy',
      outcome: 'succeeded',
      actor: 'user:default/guest',
      serverVersion: r.version,
      overrides: {},
      manifests: r.objects,
      results: [],
      createdAt: new Date().toISOString(),
    };
  });
  const liveOf = version =>
    records.flatMap((record, i) =>
      record.manifests.map(o => ({
        ...o.manifest,
        metadata: {
          ...o.manifest.metadata,
          uid: `uid-${i}-${o.kind}`,
          resourceVersion: String(version * 100000 + i),
          generation: version,
          creationTimestamp: '2026-12-02T00:00:00Z',
          managedFields: [
            {
              manager: 'model-manager',
              operation: 'Apply',
              apiVersion: o.apiVersion,
              time: '2026-12-02T00:00:00Z',
              fieldsType: 'FieldsV1',
              fieldsV1: { 'f:spec': { 'f:model': {}, 'f:template': {} } },
            },
          ],
        },
        status: {
          conditions: [{ type: 'Ready', status: 'False', reason: 'Waiting' }],
        },
      })),
    );
  const readsOf = objects => [
    { cluster: 'east', objects, unservedKinds: [], readAt: new Date() },
  ];
  const reads = readsOf(liveOf(1));
  const changed = readsOf(liveOf(2));
  const build = memo =>
    buildFleet({
      catalog,
      reads,
      records,
      memo,
      gatewayBaseUrl: () => undefined,
    });

  // Warm-up (JIT), then each variant in turn.
  for (let i = 0; i < 2; i++) build(undefined);
  const without = [];
  const withMemo = [];
  const memo = new TargetMemo();
  const first = cpuMs(() => build(memo));
  for (let i = 0; i < rounds; i++) {
    without.push(cpuMs(() => build(undefined)));
    withMemo.push(cpuMs(() => build(memo)));
  }
  const afterChange = cpuMs(() =>
    buildFleet({ catalog, reads: changed, records, memo }),
  );
  const load = os
    .loadavg()
    .map(l => l.toFixed(2))
    .join(' ');
  console.log(
    `buildFleet of ${n} targets (load average ${load}), CPU ms, median of ${rounds}:`,
  );
  console.log(
    `  without the memo: ${median(without).toFixed(0)} (${without
      .map(x => x.toFixed(0))
      .join(', ')})`,
  );
  console.log(
    `  with the memo, nothing changed: ${median(withMemo).toFixed(
      0,
    )} (${withMemo
      .map(x => x.toFixed(0))
      .join(', ')}); its first build ${first.toFixed(
      0,
    )}; after every object changed ${afterChange.toFixed(0)}`,
  );
})().catch(e => {
  console.error(e);
  process.exitCode = 1;
});
