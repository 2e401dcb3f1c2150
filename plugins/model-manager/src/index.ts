/**
 * model-manager frontend plugin.
 *
 * @packageDocumentation
 */
export { modelManagerPlugin, ModelsPage, EntityServingContent, EntityRuntimeContent, rootRouteRef } from './plugin';
export * from './api';
export { KServeStatusCard, WithKServeStatus } from './components/KServeStatusCard';
