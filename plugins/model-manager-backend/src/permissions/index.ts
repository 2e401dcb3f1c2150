export { ModelAuthorizer } from './ModelAuthorizer';
export type { ModelAuthorizerOptions, ModelDenial } from './ModelAuthorizer';
