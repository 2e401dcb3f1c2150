export * from './types';
export {
  renderManifests,
  controllerGatewayOf,
  controllerKindsOf,
  controllerTlsOf,
  gatewayClassOf,
  gatewayConfigOf,
  modelLabels,
  servedModelName,
  weightsPath,
  isOwnedByModel,
  BUILTIN_PLACEHOLDERS,
  placeholdersOf,
} from './renderManifests';
export type { RenderOptions } from './renderManifests';
export { parseTemplate } from './parseTemplate';
export { fillTemplate } from './fillTemplate';
export {
  toKubernetesYaml,
  toKubernetesYamlStream,
  needsQuotes,
} from './toKubernetesYaml';
