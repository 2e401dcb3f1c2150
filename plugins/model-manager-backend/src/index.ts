/**
 * model-manager backend plugin.
 *
 * @packageDocumentation
 */
export { modelManagerPlugin as default } from './plugin';
export { ModelManagerService } from './service';
export type { DeploymentResult } from './service';
export {
  ServerSideApplier,
  ClusterRegistry,
  KubernetesApiError,
} from './kubernetes';
export type { ObjectResult, ObjectAction } from './kubernetes';
export { DeploymentHistory } from './history';
export type { DeploymentRecord } from './history';
export { DiagnosisReader } from './diagnosis';
export type { DiagnosisTarget } from './diagnosis';
