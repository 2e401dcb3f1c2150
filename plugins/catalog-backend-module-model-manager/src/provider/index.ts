export { ModelCatalogEntityProvider } from './ModelCatalogEntityProvider';
export {
  buildEntities,
  runtimeEntityName,
  apiEntityName,
  toTag,
} from './entities';
export {
  openAiApiDefinition,
  openAiPaths,
  servedModelName,
} from './openAiApiDefinition';
export { readProviderConfig } from './readProviderConfig';
export * from './constants';
export type * from './types';
export { FleetDeploymentReader, deploymentsOf } from './readDeployments';
export type { DeploymentReader } from './readDeployments';
