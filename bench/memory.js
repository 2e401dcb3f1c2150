#!/usr/bin/env node
/*
 * Benchmark: memory our backend code holds for a 10,000-model catalog: the catalog store (last good
 * catalog) plus the catalog entities the provider emits. Measured in one process as RSS and heap
 * after GC, before and after loading. Run with --expose-gc:
 *
 *   node --expose-gc bench/memory.js [N=10000]
 */
require('@backstage/cli/config/nodeTransform.cjs');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {
  ModelCatalogStore,
} = require('@model-manager/plugin-model-manager-node');
const { ConfigReader } = require('@backstage/config');
const {
  buildEntities,
  ModelCatalogEntityProvider,
} = require('@model-manager/plugin-catalog-backend-module-model-manager');
const { copyRuntimes, modelsYaml } = require('./catalogFixture');

const n = Number(process.argv[2] ?? 10000);
const root = path.resolve(__dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-bench-memory-'));
copyRuntimes(dir);
const parts = [];
for (let i = 0; i < n; i++) {
  const ov = i % 3 === 2;
  parts.push(
    `  model-${i}:\n    model_id: ${
      ov ? `OpenVINO/model-${i}-ov` : `org/model-${i}`
    }\n    category: ${
      i % 2 ? 'embed' : 'llm'
    }\n    owner: group:default/ml-platform\n    server:\n      runtime: ${
      ov ? 'openvino' : 'vllm'
    }\n`,
  );
}
fs.writeFileSync(path.join(dir, 'models.yaml'), modelsYaml(parts));

const mib = b => (b / 1048576).toFixed(1);
const measure = () => {
  global.gc();
  global.gc();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
};

(async () => {
  const logger = {
    info() {},
    warn() {},
    error(m) {
      console.error(m);
    },
  };
  // Warm the module graph first so code size is not counted as data.
  const warm = await ModelCatalogStore.create({
    location: { modelsFile: path.join(root, 'models.yaml') },
    logger,
  });
  buildEntities(warm.current(), {
    modelsFile: 'models.yaml',
    defaultOwner: 'group:default/ml-platform',
    defaultLifecycle: 'production',
    apiEntities: true,
  });
  const before = measure();
  const store = await ModelCatalogStore.create({
    location: { modelsFile: path.join(dir, 'models.yaml') },
    logger,
  });
  const afterStore = measure();
  // The entity provider after its first (full) mutation: what it keeps to send deltas later.
  let mutation;
  const provider = ModelCatalogEntityProvider.fromConfig(
    new ConfigReader({
      modelManager: { modelsFile: path.join(dir, 'models.yaml') },
      catalog: { providers: { modelManager: { apiEntities: true } } },
    }),
    { catalog: store, logger },
  );
  await provider.connect({
    applyMutation: async m => {
      mutation = m;
    },
    refresh: async () => {},
  });
  const provided = mutation.entities.length;
  mutation = undefined;
  const afterProvider = measure();
  const { entities } = buildEntities(store.current(), {
    modelsFile: 'models.yaml',
    defaultOwner: 'group:default/ml-platform',
    defaultLifecycle: 'production',
    apiEntities: true,
  });
  const afterEntities = measure();
  console.log(
    `${n} models: the entity provider keeps +${mib(
      afterProvider.heap - afterStore.heap,
    )} MiB heap (+${mib(
      afterProvider.rss - afterStore.rss,
    )} MiB RSS) after providing ${provided} entities`,
  );
  console.log(
    `${n} models: catalog store +${mib(
      afterStore.heap - before.heap,
    )} MiB heap (+${mib(afterStore.rss - before.rss)} MiB RSS); ${
      entities.length
    } entities +${mib(
      afterEntities.heap - afterProvider.heap,
    )} MiB heap (+${mib(
      afterEntities.rss - afterProvider.rss,
    )} MiB RSS); process RSS ${mib(afterEntities.rss)} MiB`,
  );
})();
