import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import { catalogServiceMock } from '@backstage/plugin-catalog-node/testUtils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import {
  modelDeployPermission,
  modelUndeployPermission,
} from '@model-manager/plugin-model-manager-common';
import { ModelAuthorizer } from './ModelAuthorizer';

const BOB = 'user:default/bob';

/** Allows exactly the given entity refs; records what was asked. */
function permissionsAllowing(refs: string[]) {
  const permissions = mockServices.permissions.mock();
  permissions.authorize.mockImplementation(async requests =>
    requests.map(r => ({
      result: refs.includes((r as { resourceRef?: string }).resourceRef ?? '')
        ? AuthorizeResult.ALLOW
        : AuthorizeResult.DENY,
    })),
  );
  return permissions;
}

function authorizer(options: {
  allowed?: string[];
  groups?: string[];
  adminGroup?: string;
}) {
  const permissions = permissionsAllowing(options.allowed ?? []);
  return {
    permissions,
    authorizer: ModelAuthorizer.create({
      permissions,
      auth: mockServices.auth(),
      userInfo: mockServices.userInfo({
        userEntityRef: BOB,
        ownershipEntityRefs: [BOB, ...(options.groups ?? [])],
      }),
      catalog: catalogServiceMock({
        entities: [
          {
            apiVersion: 'backstage.io/v1alpha1',
            kind: 'Component',
            metadata: { name: 'bge-m3' },
            spec: { owner: 'search' },
          },
        ],
      }),
      logger: mockServices.logger.mock(),
      adminGroup: options.adminGroup,
    }),
  };
}

describe('ModelAuthorizer', () => {
  it('asks once for every model, each with its entity ref', async () => {
    const { authorizer: a, permissions } = authorizer({
      allowed: ['component:default/bge-m3', 'component:default/qwen'],
    });
    expect(
      await a.denials(
        modelUndeployPermission,
        ['bge-m3', 'qwen', 'bge-m3'],
        mockCredentials.user(BOB),
        BOB,
      ),
    ).toEqual([]);
    expect(permissions.authorize).toHaveBeenCalledTimes(1);
    expect(permissions.authorize.mock.calls[0][0]).toEqual([
      {
        permission: modelUndeployPermission,
        resourceRef: 'component:default/bge-m3',
      },
      {
        permission: modelUndeployPermission,
        resourceRef: 'component:default/qwen',
      },
    ]);
  });

  it.each([
    {
      rule: 'names the owner (a short ref, as the catalog keeps it, written in full) and the admin group',
      options: { adminGroup: 'group:default/platform' },
      model: 'bge-m3',
      why: 'not a member of its owner group:default/search and not in the admin group group:default/platform',
    },
    {
      rule: 'names only the owner without an admin group',
      options: {},
      model: 'bge-m3',
      why: 'not a member of its owner group:default/search',
    },
    {
      rule: 'says the policy denied it when the user is in the owner group',
      options: { groups: ['group:default/search'] },
      model: 'bge-m3',
      why: 'the permission policy denied it (owner group:default/search)',
    },
    {
      rule: 'says the policy denied it for a model without an entity',
      options: {},
      model: 'qwen',
      why: 'the permission policy denied it',
    },
  ])('$rule', async ({ options, model, why }) => {
    const { authorizer: a } = authorizer(options);
    expect(
      await a.denials(
        modelDeployPermission,
        [model],
        mockCredentials.user(BOB),
        BOB,
      ),
    ).toEqual([
      {
        model,
        message: `${BOB} may not model-manager.model.deploy model ${model} (component:default/${model}): ${why}`,
      },
    ]);
  });
});
