/*
 * The catalog the fleet and rollout benchmarks use: N vLLM models (`model-0` ... `model-N-1`, on
 * the runtime's default version) and the repository's own `runtimes:` section and runtimes/
 * folder, written into a benchmark's temporary folder.
 */
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

/** models.yaml with these vLLM models and the repository's runtimes. */
function vllmModelsYaml(names) {
  const repo = fs.readFileSync(path.join(root, 'models.yaml'), 'utf8');
  return `models:\n${names
    .map(
      m =>
        `  ${m}:\n    model_id: org/${m}\n    category: llm\n    server:\n      runtime: vllm\n`,
    )
    .join('')}\n${repo.slice(repo.indexOf('\nruntimes:') + 1)}`;
}

/** Writes `dir`/models.yaml (N models) and `dir`/runtimes; the model names and the file. */
function writeVllmCatalog(dir, n) {
  fs.cpSync(path.join(root, 'runtimes'), path.join(dir, 'runtimes'), {
    recursive: true,
  });
  const models = Array.from({ length: n }, (_, i) => `model-${i}`);
  const modelsFile = path.join(dir, 'models.yaml');
  fs.writeFileSync(modelsFile, vllmModelsYaml(models));
  return { models, modelsFile };
}

module.exports = { vllmModelsYaml, writeVllmCatalog };
