import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  badVariants,
  FIXTURE_CATALOG_DIR,
} from '@model-manager/plugin-model-manager-common/testUtils';
import { ModelCatalogStore } from './ModelCatalogStore';

// The common package's test catalog (nine models, two runtimes), not the shipped one.
const REPO = FIXTURE_CATALOG_DIR;
const read = (rel: string) => fs.readFileSync(path.join(REPO, rel), 'utf8');

describe('a broken catalog file never loses the last good catalog', () => {
  it('keeps every model and runtime through 200+ broken edits, each logged with file:line', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-bad-'));
    fs.cpSync(path.join(REPO, 'runtimes'), path.join(dir, 'runtimes'), {
      recursive: true,
    });
    const good = {
      models: read('models.yaml'),
      vllm: read('runtimes/vllm/values.yaml'),
      openvino: read('runtimes/openvino/values.yaml'),
    };
    const files = {
      models: path.join(dir, 'models.yaml'),
      'vllm-values': path.join(dir, 'runtimes/vllm/values.yaml'),
      'openvino-values': path.join(dir, 'runtimes/openvino/values.yaml'),
    };
    fs.writeFileSync(files.models, good.models);
    const errors: string[] = [];
    const store = await ModelCatalogStore.create({
      location: { modelsFile: files.models },
      logger: { info: () => {}, warn: () => {}, error: m => errors.push(m) },
    });
    const before = store.current()!;
    const variants = badVariants(good.models, good.vllm, good.openvino);
    expect(variants.length).toBeGreaterThanOrEqual(200);

    for (const variant of variants) {
      fs.writeFileSync(files[variant.file], variant.text);
      const status = await store.reload();
      expect({ variant: variant.name, ok: status.ok }).toEqual({
        variant: variant.name,
        ok: false,
      });
      // The very same catalog object is still served: nothing changed, nothing lost.
      expect(store.current()).toBe(before);
      expect(errors.at(-1)).toMatch(
        /kept the last good catalog; the catalog files are invalid:\n(models\.yaml|runtimes\/\w+\/values\.yaml)(:\d+:\d+)?: /,
      );
      // Restore the file for the next variant.
      fs.writeFileSync(files.models, good.models);
      fs.writeFileSync(files['vllm-values'], good.vllm);
      fs.writeFileSync(files['openvino-values'], good.openvino);
    }
    expect(Object.keys(store.current()!.models)).toHaveLength(9);
  }, 120_000);
});
