export * from './types';
export { buildCatalog } from './buildCatalog';
export {
  catalogSourcesFromFiles,
  runtimesFileRole,
  type RuntimesFileRole,
} from './catalogSourcesFromFiles';
