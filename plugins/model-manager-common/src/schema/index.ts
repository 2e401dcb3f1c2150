export * from './modelsFileSchema';
export { zodProblems } from './zodProblems';
export * from './secretRef';
