import {
  coreServices,
  createBackendPlugin,
} from '@backstage/backend-plugin-api';
import {
  mockCredentials,
  mockServices,
  startTestBackend,
} from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import { ScmIntegrations } from '@backstage/integration';
import request from 'supertest';
import { createRouter, type RouterOptions } from '../router';
import { pullRequestReadiness } from './pullRequestReadiness';

const integrations = (github?: Array<Record<string, any>>) =>
  ScmIntegrations.fromConfig(
    new ConfigReader(github ? { integrations: { github } } : {}),
  );

const APP = {
  appId: 1,
  privateKey: 'k',
  webhookSecret: 's',
  clientId: 'c',
  clientSecret: 'cs',
};

describe('pullRequestReadiness', () => {
  it.each([
    // [what, integrations.github, repoUrl, ready, credentials, message]
    [
      'no integrations at all (github.com is known, without credentials)',
      undefined,
      'github.com?owner=acme&repo=gitops',
      false,
      'none',
      /no GitHub credentials for github.com.*adds a token or a GitHub App to the github.com entry of integrations.github.*download the objects below/,
    ],
    [
      'a token for github.com',
      [{ host: 'github.com', token: 't0ken' }],
      'github.com?owner=acme&repo=gitops',
      true,
      'token',
      /opened with the portal's GitHub token for github.com/,
    ],
    [
      'a GitHub App for github.com',
      [{ host: 'github.com', apps: [APP] }],
      'github.com?owner=acme&repo=gitops',
      true,
      'app',
      /GitHub App/,
    ],
    [
      'a token for another host only',
      [{ host: 'ghe.example.com', token: 't0ken' }],
      'github.com?owner=acme&repo=gitops',
      false,
      'none',
      /no GitHub credentials for github.com/,
    ],
    [
      'a host with a scheme and capitals',
      [{ host: 'ghe.example.com', token: 't0ken' }],
      'https://GHE.example.com?owner=acme&repo=gitops',
      true,
      'token',
      /ghe.example.com/,
    ],
    [
      'a host no integration names',
      [{ host: 'github.com', token: 't0ken' }],
      'gitlab.example.com?owner=acme&repo=gitops',
      false,
      'none',
      /gitlab.example.com is not a GitHub host the portal knows: an administrator adds it under integrations.github/,
    ],
    [
      'not a location',
      [{ host: 'github.com', token: 't0ken' }],
      '?owner=acme',
      false,
      'none',
      /is not a repository location/,
    ],
  ] as const)('%s', (_what, github, repoUrl, ready, credentials, message) => {
    const answer = pullRequestReadiness(
      integrations(github as Array<Record<string, any>> | undefined),
      repoUrl,
    );
    expect(answer).toMatchObject({ ready, credentials });
    expect(answer.message).toMatch(message);
    expect(JSON.stringify(answer)).not.toContain('t0ken');
  });
});

describe('GET /gitops/pull-request-readiness', () => {
  async function start(github?: Array<Record<string, any>>) {
    const plugin = createBackendPlugin({
      pluginId: 'model-manager',
      register(env) {
        env.registerInit({
          deps: {
            httpRouter: coreServices.httpRouter,
            config: coreServices.rootConfig,
          },
          async init({ httpRouter, config }) {
            // The plugin's router; only this route runs, so it needs only the integrations.
            httpRouter.use(
              await createRouter({
                integrations: ScmIntegrations.fromConfig(config),
              } as unknown as RouterOptions),
            );
          },
        });
      },
    });
    return startTestBackend({
      features: [
        plugin,
        // A request without credentials is anonymous (the test backend's default is a user).
        mockServices.httpAuth.factory({
          defaultCredentials: mockCredentials.none(),
        }),
        mockServices.rootConfig.factory({
          data: github ? { integrations: { github } } : {},
        }),
      ],
    });
  }
  const user = { Authorization: mockCredentials.user.header() };

  it('answers a signed-in user, and refuses anyone else', async () => {
    const backend = await start([{ host: 'github.com', token: 't0ken' }]);
    try {
      const ok = await request(backend.server)
        .get('/api/model-manager/gitops/pull-request-readiness')
        .query({ repoUrl: 'github.com?owner=acme&repo=gitops' })
        .set(user);
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({
        host: 'github.com',
        ready: true,
        credentials: 'token',
      });
      const anonymous = await request(backend.server)
        .get('/api/model-manager/gitops/pull-request-readiness')
        .query({ repoUrl: 'github.com?owner=acme&repo=gitops' });
      expect(anonymous.status).toBe(401);
    } finally {
      await backend.stop();
    }
  });

  it('says which parameter is missing', async () => {
    const backend = await start();
    try {
      const res = await request(backend.server)
        .get('/api/model-manager/gitops/pull-request-readiness')
        .set(user);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(
        /repoUrl is required: the repository as the template has it/,
      );
    } finally {
      await backend.stop();
    }
  });
});
