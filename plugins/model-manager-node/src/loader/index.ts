export * from './types';
export { readCatalogSources, firstInvalidUtf8 } from './readCatalogSources';
export { loadCatalog } from './loadCatalog';
export { ModelCatalogStore } from './ModelCatalogStore';
export type { CatalogLoadStatus, StoreLogger } from './ModelCatalogStore';
