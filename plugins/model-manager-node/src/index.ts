/**
 * Node-side model-manager: reading models.yaml and runtimes/ from disk with line numbers, the
 * catalog store shared by the backend plugin and the catalog module, and the CLI.
 *
 * @packageDocumentation
 */
export * from './loader';
export * from './cli';
export { modelCatalogServiceRef } from './service';
export type { ModelCatalogService } from './service';
