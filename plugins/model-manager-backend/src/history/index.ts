export * from './types';
export { DeploymentHistory } from './DeploymentHistory';
export { withChangesFromPrevious } from './withChangesFromPrevious';
