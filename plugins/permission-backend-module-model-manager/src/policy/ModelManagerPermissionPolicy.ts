import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import type { Config } from '@backstage/config';
import {
  catalogConditions,
  createCatalogConditionalDecision,
} from '@backstage/plugin-catalog-backend/alpha';
import {
  AuthorizeResult,
  isPermission,
  isResourcePermission,
  type PolicyDecision,
} from '@backstage/plugin-permission-common';
import type {
  PermissionPolicy,
  PolicyQuery,
  PolicyQueryUser,
} from '@backstage/plugin-permission-node';
import {
  modelDeployPermission,
  modelRenderPermission,
  modelUndeployPermission,
} from '@model-manager/plugin-model-manager-common';

/** The model permissions this policy decides by ownership; the rest it allows. */
const MODEL_PERMISSIONS = [
  modelDeployPermission,
  modelUndeployPermission,
  modelRenderPermission,
];

const ADMIN_GROUP_KEY = 'modelManager.permissionPolicy.adminGroup';

/**
 * Who may deploy what:
 * - `model-manager.model.deploy` / `model-manager.model.undeploy` / `model-manager.model.render`
 *   (the GitOps render; resource permissions on the model's catalog entity): a member of the admin group may, on every model (ALLOW); anyone
 *   else signed in may on the models their user or one of their groups owns: a CONDITIONAL
 *   decision with the catalog's stock `isEntityOwner` rule and the user's ownership refs, which
 *   the permission backend resolves by asking the catalog about the model's entity; nobody else
 *   (no user: DENY).
 * - every other permission: ALLOW (what the embedded allow-all policy does).
 *
 * Ownership refs are what sign-in put in the user's token: the user and the groups it is a
 * member of (`signInWithCatalogUser`). Conditional decisions and `isEntityOwner`:
 * https://backstage.io/docs/permissions/writing-a-policy and backstage/backstage
 * plugins/catalog-backend/src/permissions/rules/isEntityOwner.ts.
 */
export class ModelManagerPermissionPolicy implements PermissionPolicy {
  private constructor(private readonly adminGroup: string | undefined) {}

  static create(options: {
    adminGroup?: string;
  }): ModelManagerPermissionPolicy {
    return new ModelManagerPermissionPolicy(options.adminGroup);
  }

  /** Reads `modelManager.permissionPolicy.adminGroup` (a group entity ref, optional). */
  static fromConfig(config: Config): ModelManagerPermissionPolicy {
    const value = config.getOptionalString(ADMIN_GROUP_KEY);
    if (value === undefined) return ModelManagerPermissionPolicy.create({});
    let ref;
    try {
      ref = parseEntityRef(value, { defaultKind: 'group' });
    } catch (e) {
      throw new Error(
        `${ADMIN_GROUP_KEY}: '${value}' is not an entity ref (${e}); write it as group:default/<name>`,
      );
    }
    if (ref.kind.toLowerCase() !== 'group')
      throw new Error(
        `${ADMIN_GROUP_KEY}: '${value}' is a ${ref.kind}, not a group; write it as group:default/<name>`,
      );
    return ModelManagerPermissionPolicy.create({
      adminGroup: stringifyEntityRef(ref),
    });
  }

  async handle(
    request: PolicyQuery,
    user?: PolicyQueryUser,
  ): Promise<PolicyDecision> {
    const { permission } = request;
    if (!MODEL_PERMISSIONS.some(p => isPermission(permission, p)))
      return { result: AuthorizeResult.ALLOW };
    if (!user || !isResourcePermission(permission, 'catalog-entity'))
      return { result: AuthorizeResult.DENY };
    const claims = user.info.ownershipEntityRefs;
    if (this.adminGroup && claims.includes(this.adminGroup))
      return { result: AuthorizeResult.ALLOW };
    return createCatalogConditionalDecision(
      permission,
      catalogConditions.isEntityOwner({ claims }),
    );
  }
}
