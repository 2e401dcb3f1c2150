#!/usr/bin/env node
/*
 * Benchmark: build (parse + validate + resolve every model) and resolve + render a generated
 * catalog of N models. Prints models/s, total time and peak RSS. Not a test: it prints numbers.
 *
 *   node bench/render.js [N...]        default: 100 1000 10000
 */
require('@backstage/cli/config/nodeTransform.cjs');
const path = require('node:path');
const {
  buildCatalog,
  resolveServer,
  renderManifests,
  catalogSourcesFromFiles,
} = require('@model-manager/plugin-model-manager-common');
const { modelsYaml } = require('./catalogFixture');
const { runtimesFiles } = require('./runtimesFiles');

const root = path.resolve(__dirname, '..');

function generateModels(n) {
  const kinds = [
    ['vllm', 'llm', ''],
    ['vllm', 'embed', ''],
    ['vllm', 'llm', '      server_version: "0.19.1"\n'],
    ['openvino', 'embed', ''],
    ['openvino', 'llm', ''],
  ];
  const parts = [];
  for (let i = 0; i < n; i++) {
    const [runtime, category, extra] = kinds[i % kinds.length];
    const id =
      runtime === 'openvino' && category === 'embed'
        ? `OpenVINO/model-${i}-ov`
        : `org/model-${i}`;
    parts.push(
      `  model-${i}:\n    model_id: ${id}\n    category: ${category}\n`,
    );
    if (runtime === 'openvino' && category === 'llm')
      parts.push('    weight_format: int4\n');
    parts.push(
      `    server:\n      runtime: ${runtime}\n${extra}      env:\n        MODEL_INDEX: "${i}"\n`,
    );
    if (runtime === 'vllm') parts.push(`      args: ["--seed=${i}"]\n`);
  }
  return modelsYaml(parts);
}

function sources(models) {
  return catalogSourcesFromFiles(
    { file: 'models.yaml', text: models },
    runtimesFiles(root),
  );
}

let peakRss = 0;
const sample = () => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
};
const timer = setInterval(sample, 5);

const sizes = process.argv.slice(2).map(Number).filter(Boolean);
for (const n of sizes.length ? sizes : [100, 1000, 10000]) {
  const text = generateModels(n);
  global.gc?.();
  peakRss = process.memoryUsage().rss;
  const t0 = process.hrtime.bigint();
  const catalog = buildCatalog(sources(text));
  const t1 = process.hrtime.bigint();
  let objects = 0;
  for (const name of Object.keys(catalog.models)) {
    // The deploy path: no source positions needed.
    const server = resolveServer(catalog, name, {}, { locate: false });
    objects += renderManifests(catalog, server, { namespace: 'models' }).length;
    if ((objects & 1023) === 0) sample();
  }
  const t2 = process.hrtime.bigint();
  sample();
  const load = Number(t1 - t0) / 1e6;
  const render = Number(t2 - t1) / 1e6;
  const total = load + render;
  console.log(
    `${String(n).padStart(6)} models  ${(text.length / 1024)
      .toFixed(0)
      .padStart(6)} KiB  load+validate ${load
      .toFixed(0)
      .padStart(6)} ms  resolve+render ${render
      .toFixed(0)
      .padStart(6)} ms (${objects} objects)  total ${total
      .toFixed(0)
      .padStart(6)} ms  ${Math.round(n / (total / 1000))
      .toString()
      .padStart(7)} models/s  resolve+render only ${Math.round(
      n / (render / 1000),
    )
      .toString()
      .padStart(7)} models/s  peak RSS ${(peakRss / 1048576).toFixed(0)} MiB`,
  );
}
clearInterval(timer);
