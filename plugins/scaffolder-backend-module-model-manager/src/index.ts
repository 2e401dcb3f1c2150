/**
 * Scaffolder actions `model-manager:deploy`, `model-manager:undeploy`, `model-manager:render`,
 * `model-manager:rollout` and the rollout as template steps (`model-manager:rollout:plan`,
 * `:canary`, `:wait-canary`, `:batches`, `:summary`).
 *
 * @packageDocumentation
 */
export { scaffolderModuleModelManager as default } from './module';
export {
  createDeployModelAction,
  createRenderModelAction,
  createRolloutAction,
  createRolloutBatchesAction,
  createRolloutCanaryAction,
  createRolloutPlanAction,
  createRolloutSummaryAction,
  createRolloutWaitCanaryAction,
  createUndeployModelAction,
  DEPLOY_ACTION_ID,
  RENDER_ACTION_ID,
  ROLLOUT_ACTION_ID,
  ROLLOUT_BATCHES_ACTION_ID,
  ROLLOUT_CANARY_ACTION_ID,
  ROLLOUT_PLAN_ACTION_ID,
  ROLLOUT_SUMMARY_ACTION_ID,
  ROLLOUT_WAIT_CANARY_ACTION_ID,
  UNDEPLOY_ACTION_ID,
} from './actions';
export type {
  ModelManagerActionOptions,
  ModelManagerWaitingActionOptions,
} from './actions';
