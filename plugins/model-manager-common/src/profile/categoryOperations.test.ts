import { buildCatalog } from '../catalog/buildCatalog';
import {
  dirSources,
  FIXTURE_ENGINE_B_DIR,
  fixtureSources,
} from '../testUtils/catalogFixtures';
import { categoryOperations } from './categoryOperations';

const fixture = buildCatalog(fixtureSources());
const engineB = buildCatalog(dirSources(FIXTURE_ENGINE_B_DIR));

describe('categoryOperations: what a category serves is its engine profile api.operations', () => {
  it.each([
    {
      catalog: fixture,
      runtime: 'vllm',
      category: 'llm',
      ops: ['chat', 'completions'],
    },
    {
      catalog: fixture,
      runtime: 'vllm',
      category: 'rerank',
      ops: ['rerank', 'score'],
    },
    {
      catalog: fixture,
      runtime: 'openvino',
      category: 'rerank',
      ops: ['rerank'],
    },
    {
      catalog: engineB,
      runtime: 'fixtureb',
      category: 'scorer',
      ops: ['score'],
    },
    {
      catalog: engineB,
      runtime: 'fixtureb',
      category: 'seeing',
      ops: ['chat'],
    },
    { catalog: engineB, runtime: 'fixtureb', category: 'llm', ops: [] },
    { catalog: fixture, runtime: 'gone', category: 'llm', ops: [] },
  ])('$runtime $category: $ops', ({ catalog, runtime, category, ops }) => {
    expect(categoryOperations(catalog, runtime, category)).toEqual(ops);
  });
});
