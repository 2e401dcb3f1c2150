export { ModelManagerService } from './ModelManagerService';
export type { ModelManagerServiceOptions } from './ModelManagerService';
export type { DeploymentResult, DeployOptions, DeployTarget } from './types';
export type { Caller } from './access';
export { ModelIndex } from './ModelIndex';
