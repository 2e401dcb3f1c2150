export * from './types';
export { ModelManagerClient, modelManagerApiRef } from './ModelManagerClient';
export { errorText } from './errorText';
