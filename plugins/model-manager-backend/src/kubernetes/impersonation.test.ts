import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mockCredentials } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import { KubeApiTestServer } from '@model-manager/kube-api-test-server';
import request from 'supertest';
import { startModelManager } from '../__testUtils__/testBackend';
import { ClusterRegistry } from './ClusterRegistry';

describe('impersonation', () => {
  it("sends Impersonate-User so the cluster's RBAC applies to the signed-in user", async () => {
    // alice may patch in namespace `models`; bob has no rules at all.
    const kube = await KubeApiTestServer.start({
      namespaces: ['models'],
      impersonatable: {
        'user:default/alice': [
          {
            namespaces: ['models'],
            verbs: '*',
            resources: '*',
            apiGroups: '*',
          },
        ],
      },
    });
    const ctx = await startModelManager({ kube, impersonateUser: true });
    try {
      const alice = await request(ctx.server)
        .post('/api/model-manager/models/bge-m3/deploy')
        .set('Authorization', mockCredentials.user.header('user:default/alice'))
        .send({ cluster: 'local', namespace: 'models' });
      expect(alice.status).toBe(200);
      expect(
        kube.requests
          .filter(r => r.method === 'PATCH')
          .every(r => r.impersonatedUser === 'user:default/alice'),
      ).toBe(true);

      const bob = await request(ctx.server)
        .post('/api/model-manager/models/bge-reranker-v2-m3/deploy')
        .set('Authorization', mockCredentials.user.header('user:default/bob'))
        .send({ cluster: 'local', namespace: 'models' });
      expect(bob.status).toBe(403);
      expect(bob.body.error.message).toMatch(
        /the cluster refused access: .*User "user:default\/bob" cannot/,
      );
      expect(bob.body.deployment.objects[0].action).toBe('failed');
    } finally {
      await ctx.backend.stop();
      await kube.stop();
    }
  });
});

describe('ClusterRegistry', () => {
  it('reads clusters from the Kubernetes plugin config and contexts from a kubeconfig', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-kubeconfig-'));
    const kubeconfig = path.join(dir, 'config');
    fs.writeFileSync(
      kubeconfig,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: kind\n  cluster:\n    server: https://127.0.0.1:6443\ncontexts:\n- name: kind-dev\n  context:\n    cluster: kind\n    user: dev\nusers:\n- name: dev\n  user:\n    token: t\ncurrent-context: kind-dev\n`,
    );
    const registry = ClusterRegistry.fromConfig(
      new ConfigReader({
        kubernetes: {
          clusterLocatorMethods: [
            {
              type: 'config',
              clusters: [
                {
                  name: 'local',
                  url: 'http://127.0.0.1:16443',
                  serviceAccountToken: 'x',
                  skipTLSVerify: true,
                },
                { name: 'oidc', url: 'https://x', authProvider: 'oidc' },
              ],
            },
          ],
        },
        modelManager: { kubernetes: { kubeconfig } },
      }),
    );
    expect(registry.list()).toEqual([
      { name: 'local', url: 'http://127.0.0.1:16443', source: 'config' },
      { name: 'kind-dev', url: 'https://127.0.0.1:6443', source: 'kubeconfig' },
    ]);
    expect(() => registry.kubeConfig('prod')).toThrow(
      "unknown cluster 'prod'; clusters: local, kind-dev",
    );
  });

  it('refuses a plain-http cluster without skipTLSVerify at start-up, naming the config key', () => {
    expect(() =>
      ClusterRegistry.fromConfig(
        new ConfigReader({
          kubernetes: {
            clusterLocatorMethods: [
              {
                type: 'config',
                clusters: [
                  {
                    name: 'local',
                    url: 'http://127.0.0.1:6443',
                    serviceAccountToken: 'x',
                  },
                ],
              },
            ],
          },
        }),
      ),
    ).toThrow(
      'kubernetes.clusterLocatorMethods[0].clusters[0].url is plain http (http://127.0.0.1:6443); use https, or set kubernetes.clusterLocatorMethods[0].clusters[0].skipTLSVerify: true for a local test cluster',
    );
  });

  it('names the config key of an unreadable kubeconfig', () => {
    expect(() =>
      ClusterRegistry.fromConfig(
        new ConfigReader({
          modelManager: {
            kubernetes: { kubeconfig: '/nonexistent/kubeconfig' },
          },
        }),
      ),
    ).toThrow(
      /^modelManager\.kubernetes\.kubeconfig: cannot load \/nonexistent\/kubeconfig/,
    );
  });
});
