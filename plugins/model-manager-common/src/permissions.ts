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

/**
 * Render a model's objects for a cluster and namespace, for a GitOps repository (`POST
 * /models/:name/render` with a `cluster`, what the `model-manager:render` scaffolder action and
 * the "Propose model deployment (pull request)" template ask for). A resource permission on the
 * model's catalog entity, as the deploy one. Its action is `update`, not `read`: the render
 * proposes a deployment (the template opens a pull request with the portal's git credentials),
 * so a policy that grants every `read` does not grant it. The preview without a cluster (the
 * Serving tab's manifests) is not checked: it shows what `/models/:name/resolved` shows already.
 */
export const modelRenderPermission = createPermission({
  name: 'model-manager.model.render',
  attributes: { action: 'update' },
  resourceType: RESOURCE_TYPE_CATALOG_ENTITY,
});

export const modelManagerPermissions = [
  modelDeployPermission,
  modelUndeployPermission,
  modelRenderPermission,
];

/**
 * The catalog entity ref of a model: the Component the catalog module
 * (`@model-manager/plugin-catalog-backend-module-model-manager`) emits for it, named after the
 * model in the default namespace, lower-cased as `stringifyEntityRef(entity)` writes it.
 */
export function modelEntityRef(model: string): string {
  return `component:default/${model.toLowerCase()}`;
}
