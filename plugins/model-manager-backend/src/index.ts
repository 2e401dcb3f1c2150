/**
 * model-manager backend plugin: the plugin and its public types. Its parts (the service, the
 * server-side applier, the history) are not a public API; the benchmarks under bench/ reach them
 * through `@model-manager/plugin-model-manager-backend/testUtils`.
 *
 * @packageDocumentation
 */
export { modelManagerPlugin as default } from './plugin';
export type { DeploymentResult } from './service';
export type { ObjectResult, ObjectAction } from './kubernetes';
export type { DeploymentRecord } from './history';
export type { DiagnosisTarget } from './diagnosis';
