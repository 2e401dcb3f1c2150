export * from './types';
export { resolveServer, resolveModel } from './resolveServer';
export { validateOverrides } from './validateOverrides';
export { flagName } from './layering';
export { explainServer, describeOrigin } from './explainServer';
export type { ExplainRow } from './explainServer';
export { LAYERS, layerInfo } from './layers';
export type { LayerInfo } from './layers';
export { parseQuantity } from './parseQuantity';
