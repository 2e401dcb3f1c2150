export * from './types';
export { resolveServer, resolveModel } from './resolveServer';
export { validateOverrides } from './validateOverrides';
export { flagName } from './layering';
export { explainServer, describeOrigin } from './explainServer';
export type { ExplainRow } from './explainServer';
export { LAYERS, layerInfo } from './layers';
export type { LayerInfo } from './layers';
export { referencedSecrets } from './referencedSecrets';
export type { ReferencedSecret, SecretUse } from './referencedSecrets';
export {
  argRefusal,
  credentialValueReason,
  envValueRefusal,
  isCredentialName,
  looksLikeCredential,
  SECRET_VALUE_REFUSAL,
} from './requestSecrets';
export { envQueryParams, parseEnvSecret } from './envSecretSyntax';
export { parseQuantity } from './parseQuantity';
