import type {
  AuthService,
  BackstageCredentials,
  LoggerService,
  PermissionsService,
  UserInfoService,
} from '@backstage/backend-plugin-api';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import {
  AuthorizeResult,
  type ResourcePermission,
} from '@backstage/plugin-permission-common';
import { modelEntityRef } from '@model-manager/plugin-model-manager-common';

/** A model a request would change, and why it may not (when it may not). */
export interface ModelDenial {
  model: string;
  /** e.g. `user:default/bob may not model-manager.model.deploy model bge-m3 (...): not ...` */
  message: string;
}

export interface ModelAuthorizerOptions {
  permissions: PermissionsService;
  auth: AuthService;
  userInfo: UserInfoService;
  catalog: CatalogService;
  logger: LoggerService;
  /** `modelManager.permissionPolicy.adminGroup`, named in denials when set. */
  adminGroup?: string;
}

/**
 * Checks the model permissions (`model-manager.model.deploy` / `undeploy` / `render`, resource permissions
 * on the model's catalog entity) with the model's entity ref, and explains a denial.
 *
 * `permissions.authorize` with a `resourceRef` always answers ALLOW or DENY: a policy's
 * CONDITIONAL decision is resolved by the permission backend, which sends the conditions and the
 * ref to the plugin owning the resource type (the catalog, for `catalog-entity`) at
 * `/.well-known/backstage/permissions/apply-conditions`. See backstage/backstage
 * plugins/permission-backend/src/service/router.ts (`handleRequest`, `applyConditionsLoaderFor`)
 * and plugins/permission-backend/src/service/PermissionIntegrationClient.ts.
 */
export class ModelAuthorizer {
  private constructor(private readonly options: ModelAuthorizerOptions) {}

  static create(options: ModelAuthorizerOptions): ModelAuthorizer {
    return new ModelAuthorizer(options);
  }

  /**
   * One authorize call for every model (each with its entity ref); the denied ones, each with
   * a message naming the actor, the permission, the model and why.
   */
  async denials(
    permission: ResourcePermission<'catalog-entity'>,
    models: string[],
    credentials: BackstageCredentials,
    actor: string,
  ): Promise<ModelDenial[]> {
    const unique = [...new Set(models)];
    const decisions = await this.options.permissions.authorize(
      unique.map(model => ({ permission, resourceRef: modelEntityRef(model) })),
      { credentials },
    );
    const denied = unique.filter(
      (_, i) => decisions[i].result !== AuthorizeResult.ALLOW,
    );
    if (denied.length === 0) return [];
    const claims = await this.ownershipOf(credentials);
    return Promise.all(
      denied.map(async model => ({
        model,
        message: `${actor} may not ${
          permission.name
        } model ${model} (${modelEntityRef(model)}): ${await this.reason(
          model,
          claims,
        )}`,
      })),
    );
  }

  /** Why a policy like the shipped one denied it: owner and admin group, as far as known. */
  private async reason(model: string, claims: string[] | undefined) {
    const owner = await this.ownerOf(model);
    const reasons: string[] = [];
    if (claims && owner && !claims.includes(owner))
      reasons.push(`not a member of its owner ${owner}`);
    if (claims && this.options.adminGroup)
      if (!claims.includes(this.options.adminGroup))
        reasons.push(`not in the admin group ${this.options.adminGroup}`);
    if (reasons.length === 0)
      return `the permission policy denied it${
        owner ? ` (owner ${owner})` : ''
      }`;
    return reasons.join(' and ');
  }

  /** The signed-in user's ownership refs (user and groups); undefined for services. */
  private async ownershipOf(credentials: BackstageCredentials) {
    if (!this.options.auth.isPrincipal(credentials, 'user')) return undefined;
    try {
      return (await this.options.userInfo.getUserInfo(credentials))
        .ownershipEntityRefs;
    } catch (e) {
      this.options.logger.debug(`no ownership refs for a denial: ${e}`);
      return undefined;
    }
  }

  /** `spec.owner` of the model's catalog entity, read as this plugin. */
  private async ownerOf(model: string): Promise<string | undefined> {
    try {
      const entity = await this.options.catalog.getEntityByRef(
        modelEntityRef(model),
        { credentials: await this.options.auth.getOwnServiceCredentials() },
      );
      const owner = entity?.spec?.owner;
      return typeof owner === 'string' ? normalizeGroupRef(owner) : undefined;
    } catch (e) {
      this.options.logger.debug(`no owner of ${model} for a denial: ${e}`);
      return undefined;
    }
  }
}

/** `ml-platform` / `group:ml-platform` -> `group:default/ml-platform` (as ownership refs are). */
function normalizeGroupRef(ref: string): string {
  const [kind, rest] = ref.includes(':') ? ref.split(/:(.*)/s) : ['group', ref];
  const full = rest.includes('/') ? rest : `default/${rest}`;
  return `${kind}:${full}`.toLowerCase();
}
