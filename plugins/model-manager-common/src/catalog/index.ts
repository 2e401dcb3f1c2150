export * from './types';
export { buildCatalog } from './buildCatalog';
