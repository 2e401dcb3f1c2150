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
