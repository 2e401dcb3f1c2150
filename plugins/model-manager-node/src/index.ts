/**
 * Node-side model-manager: reading models.yaml and runtimes/ from disk with line numbers, the
 * catalog store shared by the backend plugin and the catalog module. The `model-manager` CLI is
 * its own package, `@model-manager/cli` (plugins/model-manager-cli).
 *
 * @packageDocumentation
 */
export * from './loader';
export { modelCatalogServiceRef } from './service';
export type { ModelCatalogService } from './service';
