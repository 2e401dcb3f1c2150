export * from './types';
export { ClusterRegistry } from './ClusterRegistry';
export type { ClusterInfo } from './ClusterRegistry';
export { ServerSideApplier } from './ServerSideApplier';
export type { ServerSideApplierOptions } from './ServerSideApplier';
export { KubernetesApiError } from './KubernetesApiError';
