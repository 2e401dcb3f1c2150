import {
  coreServices,
  createBackendModule,
} from '@backstage/backend-plugin-api';
import { policyExtensionPoint } from '@backstage/plugin-permission-node/alpha';
import { ModelManagerPermissionPolicy } from './policy';

/**
 * Permission module: sets {@link ModelManagerPermissionPolicy} as the permission backend's policy
 * (configuration: `modelManager.permissionPolicy.adminGroup`). Add it instead of another policy
 * module (the permission backend takes one policy).
 */
export const permissionModuleModelManagerPolicy = createBackendModule({
  pluginId: 'permission',
  moduleId: 'model-manager-policy',
  register(reg) {
    reg.registerInit({
      deps: {
        policy: policyExtensionPoint,
        config: coreServices.rootConfig,
      },
      async init({ policy, config }) {
        policy.setPolicy(ModelManagerPermissionPolicy.fromConfig(config));
      },
    });
  },
});
