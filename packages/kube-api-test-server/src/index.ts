export { KubeApiTestServer } from './KubeApiTestServer';
export { ADMIN_TOKEN, KSERVE_DEV_TOKEN, DEFAULT_USERS } from './defaults';
export { readManifests, startFromEnv } from './main';
export {
  seedWorkingCluster,
  seedWorkingClusterObjects,
} from './testing/seedWorkingCluster';
export type { CelRuleReport } from './registry/ResourceRegistry';
export type { FaultInjector } from './server/faults';
export type { ObjectStore, ObjectRef, ListQuery } from './store/ObjectStore';
export type { JsonObject, JsonValue } from './util/json';
export type {
  FaultMatch,
  FaultSpec,
  KubeApiTestServerOptions,
  RbacRule,
  RequestRecord,
  UserSpec,
} from './types';
export {
  KubeEnvtest,
  PORTAL_SA_TOKEN,
  PORTAL_SA_USER,
  RESTRICTED_TOKEN,
} from './envtest/KubeEnvtest';
export type { KubeEnvtestOptions } from './envtest/KubeEnvtest';
export {
  ENVTEST_ASSETS_HOWTO,
  envtestAvailability,
  findEnvtestAssets,
} from './envtest/assets';
export type { EnvtestAssets } from './envtest/assets';
export { defaultCrdDir } from './registry/crdLoader';
export { RealKubeTarget } from './envtest/RealKubeTarget';
export { startKubeTarget, kubeTargetKind } from './envtest/startKubeTarget';
export type { KubeTargetKind } from './envtest/startKubeTarget';
export type { KubeObjects, KubeTarget } from './envtest/KubeTarget';
export type { EnvtestConnection } from './envtest/KubeEnvtest';
export { request as sendTestRequest } from './testing/httpClient';
export type { TestRequest, TestResponse } from './testing/httpClient';
