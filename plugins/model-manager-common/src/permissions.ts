import { RESOURCE_TYPE_CATALOG_ENTITY } from '@backstage/plugin-catalog-common/alpha';
import { createPermission } from '@backstage/plugin-permission-common';

/**
 * Deploy (and roll back, roll out) a model to a cluster. A resource permission on the model's
 * catalog entity (`modelEntityRef(model)`), so a policy can decide with Backstage's catalog
 * conditions (e.g. `catalogConditions.isEntityOwner`): every check passes that entity ref.
 */
export const modelDeployPermission = createPermission({
  name: 'model-manager.model.deploy',
  attributes: { action: 'update' },
  resourceType: RESOURCE_TYPE_CATALOG_ENTITY,
});

/** Remove a model's objects from a cluster (a resource permission, as the deploy one). */
export const modelUndeployPermission = createPermission({
  name: 'model-manager.model.undeploy',
  attributes: { action: 'delete' },
  resourceType: RESOURCE_TYPE_CATALOG_ENTITY,
});

export const modelManagerPermissions = [
  modelDeployPermission,
  modelUndeployPermission,
];

/**
 * The catalog entity ref of a model: the Component the catalog module
 * (`@model-manager/plugin-catalog-backend-module-model-manager`) emits for it, named after the
 * model in the default namespace, lower-cased as `stringifyEntityRef(entity)` writes it.
 */
export function modelEntityRef(model: string): string {
  return `component:default/${model.toLowerCase()}`;
}
