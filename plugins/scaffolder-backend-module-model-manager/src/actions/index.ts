export { createDeployModelAction, DEPLOY_ACTION_ID } from './deploy';
export { createUndeployModelAction, UNDEPLOY_ACTION_ID } from './undeploy';
export { createRolloutAction, ROLLOUT_ACTION_ID } from './rollout';
export { createRenderModelAction, RENDER_ACTION_ID } from './render';
export {
  createRolloutPlanAction,
  createRolloutSummaryAction,
  ROLLOUT_PLAN_ACTION_ID,
  ROLLOUT_SUMMARY_ACTION_ID,
} from './rolloutPlanSteps';
export {
  createRolloutBatchesAction,
  createRolloutCanaryAction,
  createRolloutWaitCanaryAction,
  ROLLOUT_BATCHES_ACTION_ID,
  ROLLOUT_CANARY_ACTION_ID,
  ROLLOUT_WAIT_CANARY_ACTION_ID,
} from './rolloutApplySteps';
export type {
  ModelManagerActionOptions,
  ModelManagerWaitingActionOptions,
} from './actionOptions';
