import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { scaffolderActionsExtensionPoint } from '@backstage/plugin-scaffolder-node';
import {
  createDeployModelAction,
  createRenderModelAction,
  createRolloutAction,
  createRolloutBatchesAction,
  createRolloutCanaryAction,
  createRolloutPlanAction,
  createRolloutSummaryAction,
  createRolloutWaitCanaryAction,
  createUndeployModelAction,
} from './actions';

/**
 * Adds the scaffolder actions `model-manager:deploy`, `model-manager:undeploy`,
 * `model-manager:rollout` (or the same rollout as template steps: `model-manager:rollout:plan`,
 * `:canary`, `:wait-canary`, `:batches`, `:summary`) and `model-manager:render` (GitOps: files for
 * a pull request). They call the
 * model-manager backend (found through discovery) on behalf of the user who started the task.
 */
export const scaffolderModuleModelManager = createBackendModule({
  pluginId: 'scaffolder',
  moduleId: 'model-manager',
  register(env) {
    env.registerInit({
      deps: {
        scaffolder: scaffolderActionsExtensionPoint,
        discovery: coreServices.discovery,
        auth: coreServices.auth,
        logger: coreServices.logger,
      },
      async init({ scaffolder, discovery, auth, logger }) {
        scaffolder.addActions(
          createDeployModelAction({ discovery, auth, logger }),
          createUndeployModelAction({ discovery, auth, logger }),
          createRolloutAction({ discovery, auth, logger }),
          createRolloutPlanAction({ discovery, auth, logger }),
          createRolloutCanaryAction({ discovery, auth, logger }),
          createRolloutWaitCanaryAction({ discovery, auth, logger }),
          createRolloutBatchesAction({ discovery, auth, logger }),
          createRolloutSummaryAction({ discovery, auth, logger }),
          createRenderModelAction({ discovery, auth, logger }),
        );
      },
    });
  },
});
