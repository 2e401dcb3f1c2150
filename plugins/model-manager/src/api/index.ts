export * from './types';
export { ModelManagerClient, modelManagerApiRef } from './ModelManagerClient';
