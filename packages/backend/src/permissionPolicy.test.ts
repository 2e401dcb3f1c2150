/*
 * Who may deploy what, with the real parts: Backstage's auth backend signs users of
 * examples/org.yaml in (their groups come from the catalog), the real auth/httpAuth/userInfo/
 * permissions services carry their tokens, the permission backend runs model-manager's policy
 * module, and the catalog backend (with org.yaml and the model entities) answers the policy's
 * conditional `isEntityOwner` decisions. The cluster is the Kubernetes API test double.
 *
 *   alice  (group search: owns bge-m3, bge-reranker-v2-m3, ...)  deploys her models only
 *   pat    (group platform, the admin group)                     deploys anything
 *   bob    (no group)                                             deploys nothing
 */
import {
  coreServices,
  createBackendModule,
  type AuthService,
  type DiscoveryService,
} from '@backstage/backend-plugin-api';
import { authServiceFactory } from '@backstage/backend-defaults/auth';
import { httpAuthServiceFactory } from '@backstage/backend-defaults/httpAuth';
import { permissionsServiceFactory } from '@backstage/backend-defaults/permissions';
import { permissionsRegistryServiceFactory } from '@backstage/backend-defaults/permissionsRegistry';
import { userInfoServiceFactory } from '@backstage/backend-defaults/userInfo';
import { mockServices, startTestBackend } from '@backstage/backend-test-utils';
import {
  authProvidersExtensionPoint,
  createProxyAuthenticator,
  createProxyAuthProviderFactory,
} from '@backstage/plugin-auth-node';
import { KubeApiTestServer } from '@model-manager/kube-api-test-server';
import authPlugin from '@backstage/plugin-auth-backend';
import catalogPlugin from '@backstage/plugin-catalog-backend';
import permissionPlugin from '@backstage/plugin-permission-backend';
import catalogModuleModelManager from '@model-manager/plugin-catalog-backend-module-model-manager';
import modelManagerPlugin from '@model-manager/plugin-model-manager-backend';
import { testClustersConfig } from '@model-manager/test-harness';
import permissionModuleModelManagerPolicy from '@model-manager/plugin-permission-backend-module-model-manager';
import type { JsonObject } from '@backstage/types';
import { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';
import {
  createDeployModelAction,
  createRenderModelAction,
  createRolloutAction,
  createRolloutCanaryAction,
  createUndeployModelAction,
} from '@model-manager/plugin-scaffolder-backend-module-model-manager';
import path from 'node:path';
import request from 'supertest';

jest.setTimeout(180_000);

const root = path.resolve(__dirname, '../../..');
const SEARCH_MODEL = 'bge-m3'; // owner group:default/search
const PLATFORM_MODEL = 'qwen2-5-7b-instruct'; // owner group:default/ml-platform
const ADMIN_GROUP = 'group:default/platform';

/**
 * A test-only sign-in: `GET /api/auth/test-user/refresh` with `x-test-user: <name>` signs that
 * user of the catalog in, as any real provider's resolver does (`signInWithCatalogUser` puts
 * the user and its groups into the token's ownership claims).
 */
const testSignIn = createBackendModule({
  pluginId: 'auth',
  moduleId: 'test-user-provider',
  register(reg) {
    reg.registerInit({
      deps: { providers: authProvidersExtensionPoint },
      async init({ providers }) {
        providers.registerProvider({
          providerId: 'test-user',
          factory: createProxyAuthProviderFactory({
            authenticator: createProxyAuthenticator({
              defaultProfileTransform: async () => ({ profile: {} }),
              initialize: () => undefined,
              async authenticate({ req }) {
                return { result: { name: String(req.header('x-test-user')) } };
              },
            }),
            signInResolver: async ({ result }, ctx) =>
              ctx.signInWithCatalogUser({
                entityRef: { kind: 'User', name: result.name },
              }),
          }),
        });
      },
    });
  },
});

/** The real auth and discovery services as the scaffolder plugin gets them (for its actions). */
const scaffolderServices: { auth?: AuthService; discovery?: DiscoveryService } =
  {};
const captureScaffolderServices = createBackendModule({
  pluginId: 'scaffolder',
  moduleId: 'test-services',
  register(reg) {
    reg.registerInit({
      deps: { auth: coreServices.auth, discovery: coreServices.discovery },
      async init(deps) {
        Object.assign(scaffolderServices, deps);
      },
    });
  },
});

/** Polls `check` (one request per poll) until it returns a value. */
async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise(resolve => setTimeout(resolve, 200));
  }
}

describe('the model-manager permission policy, with users of examples/org.yaml', () => {
  let kube: KubeApiTestServer;
  let backend: Awaited<ReturnType<typeof startTestBackend>>;
  const tokens: Record<string, string> = {};
  const events: Array<{
    eventId: string;
    meta: any;
    outcome?: 'success' | 'fail';
    error?: string;
  }> = [];

  beforeAll(async () => {
    kube = await KubeApiTestServer.start({ namespaces: ['default', 'models'] });
    const auditor = mockServices.auditor.mock();
    auditor.createEvent.mockImplementation(async ({ eventId, meta }) => {
      const event: (typeof events)[number] = { eventId, meta };
      // One auditor for all plugins: keep model-manager's events (not the catalog's reads).
      if (eventId.startsWith('model-')) events.push(event);
      return {
        success: async () => {
          event.outcome = 'success';
        },
        fail: async o => {
          event.outcome = 'fail';
          event.error = o.error.message;
        },
      };
    });
    backend = await startTestBackend({
      features: [
        authServiceFactory,
        httpAuthServiceFactory,
        userInfoServiceFactory,
        permissionsServiceFactory,
        permissionsRegistryServiceFactory,
        auditor.factory,
        mockServices.rootConfig.factory({ data: config(kube.url) }),
        authPlugin,
        testSignIn,
        catalogPlugin,
        catalogModuleModelManager,
        permissionPlugin,
        permissionModuleModelManagerPolicy,
        modelManagerPlugin,
        captureScaffolderServices,
      ],
    });
    const server = backend.server;
    for (const name of ['alice', 'pat', 'bob']) {
      tokens[name] = await until(`${name}'s sign-in`, async () => {
        const res = await request(server)
          .get('/api/auth/test-user/refresh')
          .set('x-test-user', name);
        return res.status === 200
          ? (res.body.backstageIdentity.token as string)
          : undefined;
      });
    }
    // The model entities come from the catalog module's provider; the policy needs them.
    await until('the model entities in the catalog', async () => {
      const res = await request(backend.server)
        .get(`/api/catalog/entities/by-name/component/default/${SEARCH_MODEL}`)
        .set('authorization', `Bearer ${tokens.pat}`);
      return res.status === 200 ? true : undefined;
    });
  });

  afterAll(async () => {
    await backend?.stop();
    await kube?.stop();
  });

  beforeEach(() => {
    events.length = 0;
    kube.resetRequests();
  });

  const as = (user: string) => ({
    post: (url: string, body: object) =>
      request(backend.server)
        .post(url)
        .set('authorization', `Bearer ${tokens[user]}`)
        .send(body),
    delete: (url: string) =>
      request(backend.server)
        .delete(url)
        .set('authorization', `Bearer ${tokens[user]}`),
  });

  it('signs each user in with their groups from examples/org.yaml', async () => {
    const res = await request(backend.server)
      .get('/api/auth/test-user/refresh')
      .set('x-test-user', 'alice');
    expect(res.body.backstageIdentity.identity.ownershipEntityRefs).toEqual([
      'user:default/alice',
      'group:default/search',
    ]);
  });

  describe('the owner (alice, group search)', () => {
    it('deploys and undeploys her model; each is audited as a success', async () => {
      const deploy = await as('alice').post(
        `/api/model-manager/models/${SEARCH_MODEL}/deploy`,
        { cluster: 'local', namespace: 'models' },
      );
      expect(deploy.status).toBe(200);
      const undeploy = await as('alice').delete(
        `/api/model-manager/models/${SEARCH_MODEL}/deployment?cluster=local&namespace=models`,
      );
      expect(undeploy.status).toBe(200);
      expect(
        events.map(e => [e.eventId, e.meta.actor, e.meta.model, e.outcome]),
      ).toEqual([
        ['model-deploy', 'user:default/alice', SEARCH_MODEL, 'success'],
        ['model-undeploy', 'user:default/alice', SEARCH_MODEL, 'success'],
      ]);
    });

    it('renders her model for GitOps (model-manager.model.render), audited as a success', async () => {
      const res = await as('alice').post(
        `/api/model-manager/models/${SEARCH_MODEL}/render`,
        { cluster: 'local', namespace: 'models' },
      );
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeGreaterThan(0);
      expect(
        events.map(e => [e.eventId, e.meta.actor, e.meta.model, e.outcome]),
      ).toEqual([
        ['model-render', 'user:default/alice', SEARCH_MODEL, 'success'],
      ]);
      expect(kube.requestCount).toBe(0);
    });

    it("may not deploy another group's model: 403 naming the permission and why, audited, no cluster call", async () => {
      const res = await as('alice').post(
        `/api/model-manager/models/${PLATFORM_MODEL}/deploy`,
        { cluster: 'local', namespace: 'models', dryRun: true },
      );
      const message = `user:default/alice may not model-manager.model.deploy model ${PLATFORM_MODEL} (component:default/${PLATFORM_MODEL}): not a member of its owner group:default/ml-platform and not in the admin group ${ADMIN_GROUP}`;
      expect(res.status).toBe(403);
      expect(res.body.error).toEqual(
        expect.objectContaining({ name: 'NotAllowedError', message }),
      );
      expect(events).toEqual([
        expect.objectContaining({
          eventId: 'model-deploy',
          outcome: 'fail',
          error: message,
        }),
      ]);
      expect(kube.requestCount).toBe(0);
    });

    it('may not roll out a batch with a model she does not own; nothing of it is applied', async () => {
      const res = await as('alice').post('/api/model-manager/rollouts/apply', {
        runtime: 'vllm',
        rolloutId: 'test-rollout',
        targets: [
          {
            model: SEARCH_MODEL,
            cluster: 'local',
            namespace: 'models',
            overrides: {},
          },
          {
            model: PLATFORM_MODEL,
            cluster: 'local',
            namespace: 'models',
            overrides: {},
          },
        ],
      });
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe(
        `user:default/alice may not model-manager.model.deploy model ${PLATFORM_MODEL} (component:default/${PLATFORM_MODEL}): not a member of its owner group:default/ml-platform and not in the admin group ${ADMIN_GROUP}; so may not roll out this batch (nothing was applied)`,
      );
      expect(events).toEqual([
        expect.objectContaining({
          eventId: 'model-rollout',
          outcome: 'fail',
          meta: expect.objectContaining({ denied: [PLATFORM_MODEL] }),
        }),
      ]);
      expect(kube.requestCount).toBe(0);
    });
  });

  describe('the admin group (pat, group platform)', () => {
    it('deploys, rolls back and undeploys a model of another group; audited as successes', async () => {
      const url = `/api/model-manager/models/${PLATFORM_MODEL}`;
      const first = await as('pat').post(`${url}/deploy`, {
        cluster: 'local',
        namespace: 'models',
      });
      expect(first.status).toBe(200);
      const second = await as('pat').post(`${url}/deploy`, {
        cluster: 'local',
        namespace: 'models',
        env: { VLLM_LOGGING_LEVEL: 'DEBUG' },
      });
      expect(second.status).toBe(200);
      const rollback = await as('pat').post(`${url}/rollback`, {
        revision: first.body.revision,
      });
      expect(rollback.status).toBe(200);
      const undeploy = await as('pat').delete(
        `${url}/deployment?cluster=local&namespace=models`,
      );
      expect(undeploy.status).toBe(200);
      expect(events.map(e => [e.eventId, e.meta.actor, e.outcome])).toEqual([
        ['model-deploy', 'user:default/pat', 'success'],
        ['model-deploy', 'user:default/pat', 'success'],
        ['model-rollback', 'user:default/pat', 'success'],
        ['model-undeploy', 'user:default/pat', 'success'],
      ]);
    });
  });

  describe('everyone else (bob, no group)', () => {
    const why = (model: string, owner: string, permission: string) =>
      `user:default/bob may not ${permission} model ${model} (component:default/${model}): not a member of its owner ${owner} and not in the admin group ${ADMIN_GROUP}`;

    it.each([
      {
        what: 'a dry run',
        eventId: 'model-deploy',
        send: () =>
          as('bob').post(`/api/model-manager/models/${SEARCH_MODEL}/deploy`, {
            cluster: 'local',
            namespace: 'models',
            dryRun: true,
          }),
        message: why(
          SEARCH_MODEL,
          'group:default/search',
          'model-manager.model.deploy',
        ),
      },
      {
        what: 'a rollback',
        eventId: 'model-rollback',
        send: () =>
          as('bob').post(
            `/api/model-manager/models/${PLATFORM_MODEL}/rollback`,
            { revision: 1 },
          ),
        message: why(
          PLATFORM_MODEL,
          'group:default/ml-platform',
          'model-manager.model.deploy',
        ),
      },
      {
        what: 'a GitOps render',
        eventId: 'model-render',
        send: () =>
          as('bob').post(`/api/model-manager/models/${SEARCH_MODEL}/render`, {
            cluster: 'local',
            namespace: 'models',
          }),
        message: why(
          SEARCH_MODEL,
          'group:default/search',
          'model-manager.model.render',
        ),
      },
      {
        what: 'an undeploy',
        eventId: 'model-undeploy',
        send: () =>
          as('bob').delete(
            `/api/model-manager/models/${SEARCH_MODEL}/deployment?cluster=local&namespace=models`,
          ),
        message: why(
          SEARCH_MODEL,
          'group:default/search',
          'model-manager.model.undeploy',
        ),
      },
    ])(
      'gets 403 for $what, audited, with no cluster call',
      async ({ send, message, eventId }) => {
        const res = await send();
        expect(res.status).toBe(403);
        expect(res.body.error.message).toBe(message);
        expect(events).toEqual([
          expect.objectContaining({
            eventId,
            outcome: 'fail',
            error: message,
            meta: expect.objectContaining({ actor: 'user:default/bob' }),
          }),
        ]);
        expect(kube.requestCount).toBe(0);
      },
    );
  });

  // The scaffolder actions call the REST API with a token on behalf of the task's initiator
  // (credentials from the real auth service), so the same checks apply to them.
  describe('scaffolder actions, as the user who started the task', () => {
    const services = () =>
      scaffolderServices as { auth: AuthService; discovery: DiscoveryService };
    const deploy = () => createDeployModelAction(services());
    const undeploy = () => createUndeployModelAction(services());
    const rollout = () => createRolloutAction(services());
    const render = () => createRenderModelAction(services());

    /** Runs an action as a task started by `user` (credentials from the real auth service). */
    async function run<I extends JsonObject>(
      user: string,
      action: {
        handler(
          ctx: ReturnType<typeof createMockActionContext<I, any>>,
        ): Promise<void>;
      },
      input: I,
    ) {
      const credentials = await services().auth.authenticate(tokens[user]);
      await action.handler({
        ...createMockActionContext<I, any>({ input }),
        getInitiatorCredentials: async () => credentials,
      });
    }

    it("model-manager:deploy deploys an owner's model, audited as the owner", async () => {
      await run('alice', deploy(), {
        model: `component:default/${SEARCH_MODEL}`,
        cluster: 'local',
        namespace: 'models',
      });
      expect(events.map(e => [e.eventId, e.meta.actor, e.outcome])).toEqual([
        ['model-deploy', 'user:default/alice', 'success'],
      ]);
    });

    it.each([
      [
        'model-manager:deploy',
        deploy,
        PLATFORM_MODEL,
        'model-manager.model.deploy',
        'group:default/ml-platform',
        'model-deploy',
      ],
      [
        'model-manager:undeploy',
        undeploy,
        SEARCH_MODEL,
        'model-manager.model.undeploy',
        'group:default/search',
        'model-undeploy',
      ],
      [
        'model-manager:render',
        render,
        SEARCH_MODEL,
        'model-manager.model.render',
        'group:default/search',
        'model-render',
      ],
    ])(
      '%s fails for bob with the 403 message; nothing reaches the cluster',
      async (_id, action, model, permission, owner, eventId) => {
        await expect(
          run('bob', action(), {
            model: `component:default/${model}`,
            cluster: 'local',
            namespace: 'models',
          }),
        ).rejects.toThrow(
          `user:default/bob may not ${permission} model ${model} (component:default/${model}): not a member of its owner ${owner} and not in the admin group ${ADMIN_GROUP}`,
        );
        expect(events).toEqual([
          expect.objectContaining({ eventId, outcome: 'fail' }),
        ]);
        expect(kube.requestCount).toBe(0);
      },
    );

    it('model-manager:rollout fails for bob at its first batch; nothing is applied', async () => {
      // A target to roll out: bge-m3 on local/models, deployed by the admin.
      const first = await as('pat').post(
        `/api/model-manager/models/${SEARCH_MODEL}/deploy`,
        { cluster: 'local', namespace: 'models' },
      );
      expect(first.status).toBe(200);
      events.length = 0;
      kube.resetRequests();
      await expect(
        run('bob', rollout(), {
          runtime: 'vllm',
          version: '0.19.1',
          cluster: 'local',
          namespace: 'models',
          waitForCanary: false,
        }),
      ).rejects.toThrow(
        `user:default/bob may not model-manager.model.deploy model ${SEARCH_MODEL} (component:default/${SEARCH_MODEL}): not a member of its owner group:default/search and not in the admin group ${ADMIN_GROUP}; so may not roll out this batch (nothing was applied)`,
      );
      expect(events).toEqual([
        expect.objectContaining({ eventId: 'model-rollout', outcome: 'fail' }),
      ]);
      expect(kube.requests.filter(r => r.method === 'PATCH')).toEqual([]);
    });

    it("model-manager:rollout:canary (the template's canary step) fails for bob the same way; nothing is applied", async () => {
      const first = await as('pat').post(
        `/api/model-manager/models/${SEARCH_MODEL}/deploy`,
        { cluster: 'local', namespace: 'models' },
      );
      expect(first.status).toBe(200);
      // The plan step's canary output: the plan's first move.
      const plan = await request(backend.server)
        .get(
          '/api/model-manager/rollouts/plan?runtime=vllm&version=0.19.1&cluster=local&namespace=models',
        )
        .set('authorization', `Bearer ${tokens.bob}`);
      expect(plan.status).toBe(200);
      const canary = plan.body.moves.filter(
        (m: { model: string }) => m.model === SEARCH_MODEL,
      );
      expect(canary).toHaveLength(1);
      events.length = 0;
      kube.resetRequests();
      await expect(
        run(
          'bob',
          // Its input schema types moves as zod objects, which JsonObject does not cover.
          createRolloutCanaryAction(services()) as unknown as {
            handler(ctx: any): Promise<void>;
          },
          {
            runtime: 'vllm',
            version: '0.19.1',
            moves: canary,
          },
        ),
      ).rejects.toThrow(
        `user:default/bob may not model-manager.model.deploy model ${SEARCH_MODEL} (component:default/${SEARCH_MODEL}): not a member of its owner group:default/search and not in the admin group ${ADMIN_GROUP}; so may not roll out this batch (nothing was applied)`,
      );
      expect(events).toEqual([
        expect.objectContaining({ eventId: 'model-rollout', outcome: 'fail' }),
      ]);
      expect(kube.requests.filter(r => r.method === 'PATCH')).toEqual([]);
    });
  });

  // What the Serving tab's usePermission({ permission, resourceRef }) asks: the policy answers
  // CONDITIONAL for alice and bob (isEntityOwner with their claims), and the permission backend
  // resolves it with the catalog into ALLOW or DENY per entity.
  it.each([
    ['alice', SEARCH_MODEL, 'ALLOW'],
    ['alice', PLATFORM_MODEL, 'DENY'],
    ['bob', SEARCH_MODEL, 'DENY'],
    ['pat', SEARCH_MODEL, 'ALLOW'],
  ])(
    'the permission backend resolves %s on %s to %s',
    async (user, model, result) => {
      const res = await request(backend.server)
        .post('/api/permission/authorize')
        .set('authorization', `Bearer ${tokens[user]}`)
        .send({
          items: [
            {
              id: '1',
              permission: {
                type: 'resource',
                name: 'model-manager.model.undeploy',
                attributes: { action: 'delete' },
                resourceType: 'catalog-entity',
              },
              resourceRef: `component:default/${model}`,
            },
          ],
        });
      expect(res.status).toBe(200);
      expect(res.body.items).toEqual([{ id: '1', result }]);
    },
  );
});

function config(kubeUrl: string) {
  return {
    app: { baseUrl: 'http://localhost:3000' },
    backend: { baseUrl: 'http://localhost:7007' },
    permission: { enabled: true },
    auth: { providers: { 'test-user': {} } },
    catalog: {
      rules: [{ allow: ['Component', 'API', 'Resource', 'User', 'Group'] }],
      locations: [
        { type: 'file', target: path.join(root, 'examples/org.yaml') },
      ],
      providers: {
        modelManager: {
          defaultOwner: 'group:default/ml-platform',
          deploymentsRefreshSeconds: 0,
        },
      },
    },
    modelManager: {
      modelsFile: path.join(root, 'models.yaml'),
      runtimesDir: path.join(root, 'runtimes'),
      watch: false,
      permissionPolicy: { enabled: true, adminGroup: ADMIN_GROUP },
      kubernetes: { retryBaseDelayMs: 1, requestTimeoutMs: 5000 },
      fleet: { cacheSeconds: 0 },
    },
    kubernetes: testClustersConfig([{ name: 'local', url: kubeUrl }]),
  };
}
