/*
 * The generated catalogs the benchmarks load: model entries they generate, under the repository's
 * own `runtimes:` section, with a copy of its runtimes/ folder, written into a benchmark's temporary
 * folder.
 *   vLLM   N vLLM models (`model-0` ... `model-N-1`, on the runtime's default version): the fleet,
 *          rollout, apply and memory benchmarks;
 *   mixed  80% vLLM (one in 7 pinned to 0.19.1), 20% OpenVINO, 50 owner groups: the benchmarks of
 *          the portal's catalog and models API.
 */
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

/** The repository's models.yaml, from its `runtimes:` section on (the part every catalog keeps). */
function runtimesSection() {
  const repo = fs.readFileSync(path.join(root, 'models.yaml'), 'utf8');
  return repo.slice(repo.indexOf('\nruntimes:') + 1);
}

/** models.yaml with these model entries (YAML text under `models:`, joined as they are) and our runtimes. */
function modelsYaml(entries) {
  return `models:\n${entries.join('')}\n${runtimesSection()}`;
}

/** Copies the repository's runtimes/ folder to `dir`/runtimes. */
function copyRuntimes(dir) {
  fs.cpSync(path.join(root, 'runtimes'), path.join(dir, 'runtimes'), {
    recursive: true,
  });
}

/**
 * models.yaml with these vLLM models and the repository's runtimes; with `repoModels`, after the
 * repository's own models (for a benchmark that also reads those).
 */
function vllmModelsYaml(names, { repoModels = false } = {}) {
  const entries = names.map(
    m =>
      `  ${m}:\n    model_id: org/${m}\n    category: llm\n    server:\n      runtime: vllm\n`,
  );
  if (!repoModels) return modelsYaml(entries);
  const repo = fs.readFileSync(path.join(root, 'models.yaml'), 'utf8');
  return `${repo.slice(0, repo.indexOf('\nruntimes:') + 1)}${entries.join(
    '',
  )}\n${runtimesSection()}`;
}

/**
 * Writes `dir`/models.yaml (N vLLM models; `options` as for vllmModelsYaml) and `dir`/runtimes;
 * the model names and the file.
 */
function writeVllmCatalog(dir, n, options) {
  copyRuntimes(dir);
  const models = Array.from({ length: n }, (_, i) => `model-${i}`);
  const modelsFile = path.join(dir, 'models.yaml');
  fs.writeFileSync(modelsFile, vllmModelsYaml(models, options));
  return { models, modelsFile };
}

/**
 * The mixed N-model models.yaml: `model-<i>` on vLLM ("generated chat model <i>", one in 7 pinned
 * to 0.19.1), every fifth `model-<i>-ov` on OpenVINO instead, owners `team-<i % 50>`.
 * `described[i]` replaces model i's description (a change of one model).
 */
function mixedModelsYaml(n, described = {}) {
  const entries = [];
  for (let i = 0; i < n; i++) {
    const owner = `    owner: group:default/team-${
      i % 50
    }\n    tags: [bench, batch-${i % 20}]\n`;
    if (i % 5 === 4) {
      const description = described[i]
        ? `    description: ${described[i]}\n`
        : '';
      entries.push(
        `  model-${i}-ov:\n${description}    model_id: OpenVINO/model-${i}-int8-ov\n    category: embed\n${owner}    server:\n      runtime: openvino\n`,
      );
    } else {
      const pin = i % 7 === 0 ? `      server_version: "0.19.1"\n` : '';
      entries.push(
        `  model-${i}:\n    description: ${
          described[i] ?? `generated chat model ${i}`
        }\n    model_id: org/model-${i}\n    category: llm\n${owner}    server:\n      runtime: vllm\n${pin}`,
      );
    }
  }
  return modelsYaml(entries);
}

/**
 * Our ModelCatalogStore over the catalog written into `dir` (no watch). Required here, not at the
 * top, so the scripts that never open a store need not load our TypeScript packages.
 */
function openCatalogStore(dir, logger) {
  const {
    ModelCatalogStore,
  } = require('@model-manager/plugin-model-manager-node');
  return ModelCatalogStore.create({
    location: {
      modelsFile: path.join(dir, 'models.yaml'),
      runtimesDir: path.join(dir, 'runtimes'),
    },
    watch: false,
    logger,
  });
}

module.exports = {
  runtimesSection,
  modelsYaml,
  copyRuntimes,
  vllmModelsYaml,
  writeVllmCatalog,
  mixedModelsYaml,
  openCatalogStore,
};
