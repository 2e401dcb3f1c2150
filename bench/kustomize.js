#!/usr/bin/env node
/*
 * Benchmark: our build + resolve + render of N vLLM models versus `kubectl kustomize` producing
 * the same LLMInferenceServices from a base and one overlay per model (name, labels, image, env,
 * args, resources, model URI). Prints both times and the ratio. Not a test: it prints numbers.
 *
 *   node bench/kustomize.js [N...]        default: 100 1000 10000
 */
require('@backstage/cli/config/nodeTransform.cjs');
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { promisify } = require('node:util');
const { parseAllDocuments, stringify } = require('yaml');
const { isDeepStrictEqual } = require('node:util');
const {
  buildCatalog,
  resolveServer,
  renderManifests,
  catalogSourcesFromFiles,
} = require('@model-manager/plugin-model-manager-common');
const { modelsYaml } = require('./catalogFixture');
const { runtimesFiles } = require('./runtimesFiles');

const run = promisify(execFile);
const root = path.resolve(__dirname, '..');

function sources(n) {
  const entries = [];
  for (let i = 0; i < n; i++) {
    entries.push(
      `  model-${i}:\n    model_id: org/model-${i}\n    category: llm\n    server:\n      runtime: vllm\n      env:\n        MODEL_INDEX: "${i}"\n      args: ["--seed=${i}"]\n`,
    );
  }
  return catalogSourcesFromFiles(
    { file: 'models.yaml', text: modelsYaml(entries) },
    runtimesFiles(root),
  );
}

/** A kustomize tree producing the same objects: base + one overlay per model. */
function kustomizeTree(dir, objects) {
  const [first] = objects;
  const base = JSON.parse(JSON.stringify(first.manifest));
  base.metadata = { name: 'model', namespace: 'models' };
  fs.mkdirSync(path.join(dir, 'base'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'base/llmisvc.yaml'), stringify(base));
  fs.writeFileSync(
    path.join(dir, 'base/kustomization.yaml'),
    stringify({ resources: ['llmisvc.yaml'] }),
  );
  const overlays = [];
  objects.forEach((object, i) => {
    const m = object.manifest;
    const o = path.join(dir, 'overlays', `m${i}`);
    fs.mkdirSync(o, { recursive: true });
    const container = m.spec.template.containers[0];
    fs.writeFileSync(
      path.join(o, 'patch.yaml'),
      stringify({
        apiVersion: m.apiVersion,
        kind: m.kind,
        metadata: {
          name: 'model',
          namespace: 'models',
          annotations: m.metadata.annotations,
        },
        spec: { model: m.spec.model, template: { containers: [container] } },
      }),
    );
    fs.writeFileSync(
      path.join(o, 'kustomization.yaml'),
      stringify({
        resources: ['../../base'],
        nameSuffix: m.metadata.name.slice('model'.length),
        labels: [{ pairs: m.metadata.labels }],
        patches: [{ path: 'patch.yaml' }],
      }),
    );
    overlays.push(`overlays/m${i}`);
  });
  fs.writeFileSync(
    path.join(dir, 'kustomization.yaml'),
    stringify({ resources: overlays }),
  );
}

(async () => {
  const sizes = process.argv.slice(2).map(Number).filter(Boolean);
  for (const n of sizes.length ? sizes : [100, 1000, 10000]) {
    const src = sources(n);
    const t0 = process.hrtime.bigint();
    const catalog = buildCatalog(src);
    const objects = Object.keys(catalog.models).flatMap(name =>
      renderManifests(
        catalog,
        resolveServer(catalog, name, {}, { locate: false }),
        { namespace: 'models' },
      ),
    );
    const ours = Number(process.hrtime.bigint() - t0) / 1e6;

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-bench-kustomize-'));
    kustomizeTree(dir, objects);
    const t1 = process.hrtime.bigint();
    const { stdout } = await run('kubectl', ['kustomize', dir], {
      maxBuffer: 1024 * 1024 * 1024,
    });
    const theirs = Number(process.hrtime.bigint() - t1) / 1e6;
    const produced = (stdout.match(/^kind: LLMInferenceService$/gm) ?? [])
      .length;
    if (produced !== n)
      throw new Error(`kustomize produced ${produced} objects, expected ${n}`);
    // Same objects: compare a sample with ours, field by field.
    const theirsByName = new Map(
      parseAllDocuments(stdout)
        .map(d => d.toJS())
        .map(o => [o.metadata.name, o]),
    );
    for (const object of [objects[0], objects[n - 1]]) {
      if (!isDeepStrictEqual(theirsByName.get(object.name), object.manifest))
        throw new Error(`kustomize's ${object.name} differs from ours`);
    }
    console.log(
      `${String(n).padStart(
        6,
      )} models  ours (load+validate+resolve+render) ${ours
        .toFixed(0)
        .padStart(6)} ms  kubectl kustomize ${theirs
        .toFixed(0)
        .padStart(7)} ms  ratio kustomize/ours ${(theirs / ours).toFixed(1)}x`,
    );
    fs.rmSync(dir, { recursive: true, force: true });
  }
})().catch(e => {
  console.error(e);
  process.exit(1);
});
