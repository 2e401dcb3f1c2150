export * from './types';
export { CatalogError, formatProblem, formatPath } from './problems';
export { parseYamlSource, MAX_SOURCE_BYTES } from './parseYamlSource';
