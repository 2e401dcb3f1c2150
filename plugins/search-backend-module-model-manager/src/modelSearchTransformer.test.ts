import type { Entity } from '@backstage/catalog-model';
import { defaultCatalogCollatorEntityTransformer } from '@backstage/plugin-search-backend-module-catalog';
import { modelSearchTransformer } from './modelSearchTransformer';

const model: Entity = {
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: {
    name: 'qwen2-5-7b-instruct',
    description: 'General-purpose chat model for internal assistants.',
    tags: ['chat', 'vllm', 'llm'],
    annotations: {
      'model-manager.io/model-id': 'Qwen/Qwen2.5-7B-Instruct',
      'model-manager.io/runtime': 'vllm',
      'model-manager.io/category': 'llm',
    },
  },
  spec: { type: 'model-server', owner: 'group:default/ml-platform' },
};

describe('modelSearchTransformer', () => {
  it('indexes a model by its description, model id (whole and halves), runtime, category and tags', () => {
    const doc = modelSearchTransformer(model);
    expect(doc.title).toBe('qwen2-5-7b-instruct');
    expect(doc.owner).toBe('group:default/ml-platform');
    expect(doc.text.split(' : ')).toEqual([
      'General-purpose chat model for internal assistants.',
      'Qwen/Qwen2.5-7B-Instruct',
      'Qwen',
      'Qwen2.5-7B-Instruct',
      'vllm',
      'llm',
      'chat',
    ]);
  });

  it("indexes other entities exactly as Backstage's default does", () => {
    const other: Entity = {
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Component',
      metadata: { name: 'billing', description: 'Bills', tags: ['java'] },
      spec: { type: 'service', owner: 'team-a' },
    };
    expect(modelSearchTransformer(other)).toEqual(
      defaultCatalogCollatorEntityTransformer(other),
    );
  });
});
