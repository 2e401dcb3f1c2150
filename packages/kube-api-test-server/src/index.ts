export { KubeApiTestServer } from './KubeApiTestServer';
export { ADMIN_TOKEN, KSERVE_DEV_TOKEN, DEFAULT_USERS } from './defaults';
export { startFromEnv } from './main';
export { seedWorkingCluster } from './testing/seedWorkingCluster';
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
