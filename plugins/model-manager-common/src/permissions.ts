import { createPermission } from '@backstage/plugin-permission-common';

/** Deploy (and roll back) a model to a cluster. */
export const modelDeployPermission = createPermission({
  name: 'model-manager.model.deploy',
  attributes: { action: 'update' },
});

/** Remove a model's objects from a cluster. */
export const modelUndeployPermission = createPermission({
  name: 'model-manager.model.undeploy',
  attributes: { action: 'delete' },
});

export const modelManagerPermissions = [
  modelDeployPermission,
  modelUndeployPermission,
];
