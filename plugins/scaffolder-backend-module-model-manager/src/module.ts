import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { scaffolderActionsExtensionPoint } from '@backstage/plugin-scaffolder-node';
import {
  createDeployModelAction,
  createRolloutAction,
  createUndeployModelAction,
} from './actions';

/**
 * Adds the scaffolder actions `model-manager:deploy`, `model-manager:undeploy` and
 * `model-manager:rollout`. They call the
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
      },
      async init({ scaffolder, discovery, auth }) {
        scaffolder.addActions(
          createDeployModelAction({ discovery, auth }),
          createUndeployModelAction({ discovery, auth }),
          createRolloutAction({ discovery, auth }),
        );
      },
    });
  },
});
