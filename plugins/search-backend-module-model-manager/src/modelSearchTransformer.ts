import type { Entity } from '@backstage/catalog-model';
import {
  defaultCatalogCollatorEntityTransformer,
  type CatalogCollatorEntityTransformer,
} from '@backstage/plugin-search-backend-module-catalog';
import {
  CATEGORY_ANNOTATION,
  MODEL_ID_ANNOTATION,
  RUNTIME_ANNOTATION,
} from '@model-manager/plugin-model-manager-common';

/**
 * The catalog collator's document for an entity: Backstage's default (title, description, kind,
 * type, owner, ...) and, for entities model-manager made, the words a platform engineer searches
 * a model by: its Hugging Face model id (both `Qwen/Qwen2.5-7B-Instruct` and its two halves), its
 * runtime, its category and its tags. Other entities are indexed as Backstage indexes them.
 */
export const modelSearchTransformer: CatalogCollatorEntityTransformer = (
  entity: Entity,
) => {
  const document = defaultCatalogCollatorEntityTransformer(entity);
  const annotations = entity.metadata.annotations ?? {};
  const modelId = annotations[MODEL_ID_ANNOTATION];
  const runtime = annotations[RUNTIME_ANNOTATION];
  const category = annotations[CATEGORY_ANNOTATION];
  if (!modelId && !runtime) return document;
  const words = [
    document.text,
    modelId,
    ...(modelId ? modelId.split('/') : []),
    runtime,
    category,
    ...(entity.metadata.tags ?? []),
  ].filter((w): w is string => !!w);
  return { ...document, text: [...new Set(words)].join(' : ') };
};
