import { ConfigReader } from '@backstage/config';
import {
  AuthorizeResult,
  createPermission,
} from '@backstage/plugin-permission-common';
import type { PolicyQueryUser } from '@backstage/plugin-permission-node';
import {
  modelDeployPermission,
  modelRenderPermission,
  modelUndeployPermission,
} from '@model-manager/plugin-model-manager-common';
import { ModelManagerPermissionPolicy } from './ModelManagerPermissionPolicy';

function user(ref: string, groups: string[]): PolicyQueryUser {
  return {
    info: { userEntityRef: ref, ownershipEntityRefs: [ref, ...groups] },
    credentials: {} as PolicyQueryUser['credentials'],
  } as PolicyQueryUser;
}

const policy = ModelManagerPermissionPolicy.fromConfig(
  new ConfigReader({
    modelManager: {
      permissionPolicy: { adminGroup: 'Group:default/Platform' },
    },
  }),
);
const admin = user('user:default/pat', ['group:default/platform']);
const searcher = user('user:default/sam', ['group:default/search']);
/** Every model permission: the GitOps render is decided as deploy is. */
const modelPermissions = [
  modelDeployPermission,
  modelUndeployPermission,
  modelRenderPermission,
];

describe('ModelManagerPermissionPolicy', () => {
  it.each(modelPermissions)(
    'admin group members may $name any model',
    async permission => {
      expect(await policy.handle({ permission }, admin)).toEqual({
        result: AuthorizeResult.ALLOW,
      });
    },
  );

  it.each(modelPermissions)(
    'other users get $name on the condition that they own the entity',
    async permission => {
      expect(await policy.handle({ permission }, searcher)).toEqual({
        result: AuthorizeResult.CONDITIONAL,
        pluginId: 'catalog',
        resourceType: 'catalog-entity',
        conditions: {
          rule: 'IS_ENTITY_OWNER',
          resourceType: 'catalog-entity',
          params: {
            claims: ['user:default/sam', 'group:default/search'],
          },
        },
      });
    },
  );

  it.each(modelPermissions)(
    'denies $name without a signed-in user',
    async permission => {
      expect(await policy.handle({ permission })).toEqual({
        result: AuthorizeResult.DENY,
      });
    },
  );

  it('allows every other permission (as allow-all does)', async () => {
    const other = createPermission({
      name: 'catalog.entity.read',
      attributes: { action: 'read' },
      resourceType: 'catalog-entity',
    });
    expect(await policy.handle({ permission: other }, searcher)).toEqual({
      result: AuthorizeResult.ALLOW,
    });
  });

  it('without an admin group, nobody is allowed outright', async () => {
    const ownersOnly = ModelManagerPermissionPolicy.fromConfig(
      new ConfigReader({}),
    );
    const decision = await ownersOnly.handle(
      { permission: modelDeployPermission },
      admin,
    );
    expect(decision.result).toBe(AuthorizeResult.CONDITIONAL);
  });

  it.each([
    ['user:default/pat', 'is a user, not a group'],
    ['group:', 'is not an entity ref'],
  ])('rejects adminGroup %s: %s', (adminGroup, message) => {
    expect(() =>
      ModelManagerPermissionPolicy.fromConfig(
        new ConfigReader({
          modelManager: { permissionPolicy: { adminGroup } },
        }),
      ),
    ).toThrow(
      expect.objectContaining({
        message: expect.stringContaining(
          `modelManager.permissionPolicy.adminGroup: '${adminGroup}' ${message}`,
        ),
      }),
    );
  });
});
