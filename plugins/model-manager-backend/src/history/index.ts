export * from './types';
export { DeploymentHistory } from './DeploymentHistory';
