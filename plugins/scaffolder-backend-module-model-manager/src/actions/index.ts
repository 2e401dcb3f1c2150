export { createDeployModelAction, DEPLOY_ACTION_ID } from './deploy';
export { createUndeployModelAction, UNDEPLOY_ACTION_ID } from './undeploy';
export { createRolloutAction, ROLLOUT_ACTION_ID } from './rollout';
export { createRenderModelAction, RENDER_ACTION_ID } from './render';
