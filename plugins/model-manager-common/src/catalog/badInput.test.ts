import fs from 'node:fs';
import path from 'node:path';
import { CatalogError } from '../source/problems';
import { badVariants } from '../testUtils';
import {
  FIXTURE_CATALOG_DIR,
  fixtureSources,
} from '../testUtils/catalogFixtures';
import { buildCatalog } from './buildCatalog';

const read = (rel: string) =>
  fs.readFileSync(path.join(FIXTURE_CATALOG_DIR, rel), 'utf8');
const variants = badVariants(
  read('models.yaml'),
  read('runtimes/vllm/values.yaml'),
  read('runtimes/openvino/values.yaml'),
);

describe('bad input: systematically broken catalog files', () => {
  it('covers at least 200 variants', () => {
    expect(variants.length).toBeGreaterThanOrEqual(200);
  });

  // Buffers (non-UTF-8) are the node loader's to reject; the engine gets text.
  const textVariants = variants.filter(v => typeof v.text === 'string');

  it.each(textVariants.map(v => [v.name, v] as const))(
    '%s: a located error, no crash',
    (_name, variant) => {
      const text = variant.text as string;
      const sources = fixtureSources(
        variant.file === 'models'
          ? { models: text }
          : {
              values: {
                [variant.file === 'vllm-values' ? 'vllm' : 'openvino']: text,
              },
            },
      );
      let error: unknown;
      try {
        buildCatalog(sources);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(CatalogError);
      const problems = (error as CatalogError).problems;
      expect(problems.length).toBeGreaterThan(0);
      const expectedFile =
        variant.file === 'models'
          ? 'models.yaml'
          : `runtimes/${
              variant.file === 'vllm-values' ? 'vllm' : 'openvino'
            }/values.yaml`;
      for (const p of problems) {
        expect(p.file).toBe(expectedFile);
        expect(p.message.length).toBeGreaterThan(10);
        // Every problem is located, except whole-file ones (too big) that have no line to point at.
        if (!/more than the \d+ allowed/.test(p.message)) {
          expect(p.line).toBeGreaterThan(0);
          expect(p.col).toBeGreaterThan(0);
        }
      }
    },
  );
});
