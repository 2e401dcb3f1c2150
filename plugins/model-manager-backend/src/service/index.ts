export { ModelManagerService } from './ModelManagerService';
export type {
  DeploymentResult,
  DeployOptions,
  DeployTarget,
} from './ModelManagerService';
export * from './schemas';
export { ModelIndex } from './ModelIndex';
