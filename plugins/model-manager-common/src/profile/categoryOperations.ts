import type { Catalog } from '../catalog/types';

/**
 * The OpenAI-compatible operations (chat, completions, embeddings, rerank, score) a model of this
 * category serves on this runtime, as its engine profile declares them (`api.operations`); empty
 * for a category the profile names no operations for, or a runtime not in the catalog.
 */
export function categoryOperations(
  catalog: Catalog,
  runtime: string,
  category: string,
): string[] {
  const operations = Object.prototype.hasOwnProperty.call(
    catalog.runtimes,
    runtime,
  )
    ? catalog.runtimes[runtime].profile.apiOperations
    : {};
  return Object.prototype.hasOwnProperty.call(operations, category)
    ? [...operations[category]]
    : [];
}
