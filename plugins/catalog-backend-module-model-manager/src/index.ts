/**
 * Catalog backend module for model-manager: catalog entities for the models and runtimes of
 * models.yaml.
 *
 * @packageDocumentation
 */
export { catalogModuleModelManager as default } from './module';
export {
  ModelCatalogEntityProvider,
  buildEntities,
  readProviderConfig,
  openAiApiDefinition,
  LOCATION_KEY,
  PROVIDER_NAME,
} from './provider';
export type { EntityOptions, BuiltEntities } from './provider';
// How the provider tells what changed between two reloads (also used by bench/provider-change.js).
export {
  diffEntities,
  entityInputs,
  unchangedModels,
} from './provider/diffEntities';
