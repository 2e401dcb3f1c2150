export {
  ModelManagerClient,
  MODEL_MANAGER_PLUGIN_ID,
} from './ModelManagerClient';
export type { ModelManagerClientOptions } from './ModelManagerClient';
export { DeploymentFailedError } from './DeploymentFailedError';
export { PreflightRefusedError } from './PreflightRefusedError';
export * from './types';
