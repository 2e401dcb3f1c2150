/**
 * Scaffolder actions `model-manager:deploy` and `model-manager:undeploy`.
 *
 * @packageDocumentation
 */
export { scaffolderModuleModelManager as default } from './module';
export {
  createDeployModelAction,
  createRenderModelAction,
  createRolloutAction,
  createUndeployModelAction,
  DEPLOY_ACTION_ID,
  RENDER_ACTION_ID,
  ROLLOUT_ACTION_ID,
  UNDEPLOY_ACTION_ID,
} from './actions';
