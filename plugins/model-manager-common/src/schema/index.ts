export * from './modelsFileSchema';
export { zodProblems } from './zodProblems';
