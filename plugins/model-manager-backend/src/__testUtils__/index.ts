/**
 * The backend's parts, exported as `@model-manager/plugin-model-manager-backend/testUtils` for the
 * benchmarks under bench/ that assemble the service path without the plugin around it
 * (bench/rollout-apply.js, bench/preflight.js, bench/apply.js, bench/diagnosis.js,
 * bench/fleet-build.js). Product code
 * only, no test code: the test harness (`startModelManager`, cluster config, seed helpers) is the
 * dev-only package `@model-manager/test-harness`, and this package's own jest hooks are in
 * `src/__testUtils__` (dev only, as Backstage's lint rules read that folder name).
 *
 * @packageDocumentation
 */
export {
  ClusterRegistry,
  KubernetesApiError,
  ServerSideApplier,
} from '../kubernetes';
export { DiagnosisReader } from '../diagnosis';
export { DeploymentHistory } from '../history';
export { buildFleet, FleetService, LiveObjectCache } from '../fleet';
export { TargetMemo } from '../fleet/targetMemo';
export type { ObjectRef, ObjectType } from '../fleet/managedKinds';
export { makeRenderer } from '../sync/makeRenderer';
export { ModelManagerService } from '../service';
export { PreflightReader, PreflightService } from '../preflight';
