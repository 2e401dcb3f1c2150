/** Authentication, impersonation and RBAC answers. */
import { ADMIN_TOKEN, KSERVE_DEV_TOKEN, KubeApiTestServer } from './index';
import { request } from './testing/httpClient';

const ISVC =
  '/apis/serving.kserve.io/v1beta1/namespaces/demo/inferenceservices';

describe('authentication and authorization', () => {
  let server: KubeApiTestServer;
  let anonymousServer: KubeApiTestServer;

  beforeAll(async () => {
    server = await KubeApiTestServer.start({
      namespaces: ['default', 'demo'],
      users: {
        [ADMIN_TOKEN]: {
          name: 'admin',
          groups: ['system:masters'],
          canImpersonate: true,
        },
        [KSERVE_DEV_TOKEN]: {
          name: 'kserve-dev',
          rules: [
            {
              namespaces: ['demo'],
              verbs: ['get', 'list', 'watch', 'patch'],
              resources: '*',
              apiGroups: ['serving.kserve.io'],
            },
          ],
        },
        'ci-token': {
          name: 'ci',
          rules: [
            {
              namespaces: '*',
              verbs: ['list'],
              resources: ['inferenceservices'],
            },
          ],
        },
      },
      impersonatable: {
        'status-writer': [
          {
            namespaces: ['demo'],
            verbs: ['update'],
            resources: ['inferenceservices/status'],
          },
        ],
      },
    });
    anonymousServer = await KubeApiTestServer.start({ anonymous: 'forbidden' });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await anonymousServer?.stop();
  });

  it.each([
    ['no token', undefined],
    ['an unknown token', 'nope'],
  ])('answers 401 for %s', async (_name, token) => {
    const res = await request(server.url, { path: '/apis', token });
    expect(res.status).toBe(401);
    expect(res.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
  });

  it('treats token-less requests as system:anonymous when anonymous is "forbidden"', async () => {
    expect(
      (await request(anonymousServer.url, { path: '/version' })).status,
    ).toBe(200);
    const discovery = await request(anonymousServer.url, { path: '/apis' });
    expect(discovery.status).toBe(403);
    expect(discovery.json.message).toBe(
      'forbidden: User "system:anonymous" cannot get path "/apis"',
    );
    expect(discovery.json.details).toEqual({});
    expect(
      (await request(anonymousServer.url, { path: '/apis', token: 'nope' }))
        .status,
    ).toBe(401);
    expect(anonymousServer.requests.map(r => r.user)).toEqual([
      'system:anonymous',
      'system:anonymous',
      undefined,
    ]);
    // Each record says what was answered.
    expect(anonymousServer.requests.map(r => r.status)).toEqual([
      200, 403, 401,
    ]);
  });

  it.each([
    [
      'kserve-dev lists secrets',
      KSERVE_DEV_TOKEN,
      'GET',
      '/api/v1/namespaces/demo/secrets',
      'secrets is forbidden: User "kserve-dev" cannot list resource "secrets" in API group "" in the namespace "demo"',
    ],
    [
      'kserve-dev deletes',
      KSERVE_DEV_TOKEN,
      'DELETE',
      `${ISVC}/x`,
      'inferenceservices.serving.kserve.io "x" is forbidden: User "kserve-dev" cannot delete resource "inferenceservices" in API group "serving.kserve.io" in the namespace "demo"',
    ],
    [
      'kserve-dev lists all namespaces',
      KSERVE_DEV_TOKEN,
      'GET',
      '/apis/serving.kserve.io/v1beta1/inferenceservices',
      'inferenceservices.serving.kserve.io is forbidden: User "kserve-dev" cannot list resource "inferenceservices" in API group "serving.kserve.io" at the cluster scope',
    ],
    [
      'ci watches',
      'ci-token',
      'GET',
      `${ISVC}?watch=true`,
      'inferenceservices.serving.kserve.io is forbidden: User "ci" cannot watch resource "inferenceservices" in API group "serving.kserve.io" in the namespace "demo"',
    ],
    [
      'ci reads a namespace',
      'ci-token',
      'GET',
      '/api/v1/namespaces/demo',
      'namespaces "demo" is forbidden: User "ci" cannot get resource "namespaces" in API group "" in the namespace "demo"',
    ],
  ])('forbids: %s', async (_name, token, method, path, message) => {
    const res = await request(server.url, { method, path, token });
    expect(res.status).toBe(403);
    expect(res.json.reason).toBe('Forbidden');
    expect(res.json.message).toBe(message);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each([
    ['kserve-dev lists in demo', KSERVE_DEV_TOKEN, ISVC],
    [
      'ci lists in all namespaces',
      'ci-token',
      '/apis/serving.kserve.io/v1beta1/inferenceservices',
    ],
    [
      'any authenticated user reads discovery',
      'ci-token',
      '/apis/serving.kserve.io/v1beta1',
    ],
  ])('allows: %s', async (_name, token, path) => {
    expect((await request(server.url, { path, token })).status).toBe(200);
  });

  it('applies RBAC of the impersonated user and logs both users', async () => {
    server.resetRequests();
    const res = await request(server.url, {
      path: '/api/v1/namespaces/demo/secrets',
      token: ADMIN_TOKEN,
      headers: { 'Impersonate-User': 'kserve-dev' },
    });
    expect(res.status).toBe(403);
    expect(server.requests).toEqual([
      {
        method: 'GET',
        path: '/api/v1/namespaces/demo/secrets',
        query: {},
        user: 'admin',
        impersonatedUser: 'kserve-dev',
        status: 403,
      },
    ]);
  });

  it('resolves impersonatable users and impersonated groups', async () => {
    const asWriter = await request(server.url, {
      method: 'GET',
      path: ISVC,
      token: ADMIN_TOKEN,
      headers: { 'Impersonate-User': 'status-writer' },
    });
    expect(asWriter.status).toBe(403);
    const unknownButMaster = await request(server.url, {
      path: ISVC,
      token: ADMIN_TOKEN,
      headers: {
        'Impersonate-User': 'someone',
        'Impersonate-Group': 'system:masters',
      },
    });
    expect(unknownButMaster.status).toBe(200);
  });

  it('forbids impersonation to users who may not impersonate', async () => {
    const res = await request(server.url, {
      path: ISVC,
      token: KSERVE_DEV_TOKEN,
      headers: { 'Impersonate-User': 'admin' },
    });
    expect(res.status).toBe(403);
    expect(res.json).toEqual(
      expect.objectContaining({
        message:
          'users "admin" is forbidden: User "kserve-dev" cannot impersonate resource "users" in API group "" at the cluster scope',
        details: { name: 'admin', kind: 'users' },
      }),
    );
  });
});
