/**
 * Test support of the model-manager repository, dev only: a real Backstage backend with the
 * model-manager plugin, deploying to the Kubernetes API test double (or a real kube-apiserver,
 * `MODEL_MANAGER_TEST_KUBE=real`), for the suites of the backend, the scaffolder module and the
 * portal, and for the benchmarks under bench/. No product package depends on it.
 *
 * @packageDocumentation
 */
export {
  REPO_ROOT,
  startModelManager,
  type StartModelManagerOptions,
} from './startModelManager';
export { testClustersConfig } from './clusterConfig';
export { putWithStatus, vllmWorkloadPod } from './workloadPod';
export {
  seedSchedulableCluster,
  seedSchedulableTarget,
  KSERVE_GATEWAY,
  ENVOY_GATEWAY_CONFIG_FILE,
  TEST_GATEWAY,
  TEST_SECRETS,
} from './seedCluster';
