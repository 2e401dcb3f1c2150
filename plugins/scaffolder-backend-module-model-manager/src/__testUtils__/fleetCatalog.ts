import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIXTURE_CATALOG_DIR } from '@model-manager/plugin-model-manager-common/testUtils';

/** Eight vLLM models on the runtime's default version: the fleet of the rollout tests. */
export const FLEET_MODELS = Array.from({ length: 8 }, (_, i) => `model-${i}`);

/** A catalog with the {@link FLEET_MODELS}, in a folder the test may edit; the models.yaml path. */
export function fleetCatalog(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-rollout-'));
  fs.cpSync(
    path.join(FIXTURE_CATALOG_DIR, 'runtimes'),
    path.join(dir, 'runtimes'),
    {
      recursive: true,
    },
  );
  const repo = fs.readFileSync(
    path.join(FIXTURE_CATALOG_DIR, 'models.yaml'),
    'utf8',
  );
  const models = FLEET_MODELS.map(
    m =>
      `  ${m}:\n    model_id: org/${m}\n    category: llm\n    server:\n      runtime: vllm\n`,
  ).join('');
  fs.writeFileSync(
    path.join(dir, 'models.yaml'),
    `models:\n${models}\n${repo.slice(repo.indexOf('\nruntimes:') + 1)}`,
  );
  return path.join(dir, 'models.yaml');
}
