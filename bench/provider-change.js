#!/usr/bin/env node
/*
 * Benchmark: our side of a one-model change at 10,000 models, in one process: the model catalog
 * store reloading models.yaml (parse, validate, resolve), the provider building the entities of
 * the models whose inputs changed (`unchangedModels`), and the delta against what it provided
 * (`diffEntities`). Four changes of one model's description, each timed by step.
 *
 *   node bench/provider-change.js [--full]   (--full: every model built and digested again, as before)
 */
require('@backstage/cli/config/nodeTransform.cjs');
const fs = require('fs');
const path = require('path');
const os = require('os');
const { ConfigReader } = require('@backstage/config');
const {
  ModelCatalogStore,
} = require('@model-manager/plugin-model-manager-node');
const {
  buildEntities,
  readProviderConfig,
  diffEntities,
  entityInputs,
  unchangedModels,
} = require('@model-manager/plugin-catalog-backend-module-model-manager');
const { copyRuntimes, mixedModelsYaml } = require('./catalogFixture');

const full = process.argv.includes('--full');
const n = 10000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-chg-'));
copyRuntimes(dir);
// The changed model: model-11, a vLLM one.
const gen = description => mixedModelsYaml(n, { 11: description });
const file = path.join(dir, 'models.yaml');
(async () => {
  fs.writeFileSync(file, gen('x'));
  const logger = { info() {}, warn() {}, error: console.error };
  const store = await ModelCatalogStore.create({
    location: { modelsFile: file },
    logger,
  });
  const opts = readProviderConfig(
    new ConfigReader({
      modelManager: { modelsFile: file },
      catalog: {
        providers: {
          modelManager: { apiEntities: true, defaultSystem: 'model-serving' },
        },
      },
    }),
  );
  const fullBuild = c => {
    const inputs = entityInputs(c, {});
    return diffEntities(
      undefined,
      c,
      inputs,
      buildEntities(c, opts, {}).entities,
    ).provided;
  };
  let prev = fullBuild(store.current());
  for (let k = 0; k < 4; k++) {
    fs.writeFileSync(file, gen(`changed ${k}`));
    let t = process.hrtime.bigint();
    const ms = () => {
      const x = Number(process.hrtime.bigint() - t) / 1e6;
      t = process.hrtime.bigint();
      return x.toFixed(0);
    };
    await store.reload();
    const a = ms();
    const cat = store.current();
    const inputs = entityInputs(cat, {});
    const { entities } = buildEntities(
      cat,
      opts,
      {},
      full ? undefined : unchangedModels(prev, inputs),
    );
    const b = ms();
    const d = diffEntities(prev, cat, inputs, entities);
    prev = d.provided;
    const c = ms();
    console.log(
      `reload ${a} ms, buildEntities ${b} ms, diff ${c} ms, added ${d.added.length}`,
    );
  }
})();
