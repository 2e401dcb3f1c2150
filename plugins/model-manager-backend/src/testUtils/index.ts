/**
 * Test utilities of the model-manager backend, exported as
 * `@model-manager/plugin-model-manager-backend/testUtils` (the `exports` map of package.json,
 * as Backstage's own plugins export theirs, e.g. `@backstage/plugin-catalog-node/testUtils`).
 *
 * @packageDocumentation
 */
export {
  REPO_ROOT,
  startModelManager,
  type StartModelManagerOptions,
} from './startModelManager';
export { testClustersConfig } from './clusterConfig';
export {
  seedSchedulableCluster,
  seedSchedulableTarget,
  TEST_GATEWAY,
} from './seedCluster';

// The backend's parts, for benchmarks that assemble the service path without the plugin around it
// (bench/rollout-apply.js).
export { ClusterRegistry, ServerSideApplier } from '../kubernetes';
export { DeploymentHistory } from '../history';
export { FleetService, LiveObjectCache } from '../fleet';
export { ModelManagerService } from '../service';
export { PreflightReader, PreflightService } from '../preflight';
