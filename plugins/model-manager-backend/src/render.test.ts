import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import { useModelManager } from './__testUtils__/testBackend';

const ALICE = mockCredentials.user.header('user:default/alice');

/**
 * `POST /models/:name/render` with a cluster (what the GitOps render asks for): the cluster must
 * exist and allow the namespace, as for a deploy, and no cluster is called.
 */
describe('POST /models/:name/render with a cluster', () => {
  const ctx = useModelManager({
    modelManagerConfig: {
      kubernetes: {
        retryBaseDelayMs: 1,
        requestTimeoutMs: 5000,
        impersonateUser: false,
        clusters: { local: { namespaces: ['default', 'models'] } },
      },
    },
  });
  beforeEach(() => ctx.kube.resetRequests());
  afterEach(() => expect(ctx.kube.requests).toEqual([]));
  const render = (body: object) =>
    request(ctx.server)
      .post('/api/model-manager/models/bge-m3/render')
      .set('Authorization', ALICE)
      .send(body);

  it('renders for a namespace the cluster allows', async () => {
    const res = await render({ cluster: 'local', namespace: 'models' });
    expect(res.status).toBe(200);
    expect(
      res.body.items.map((o: any) => [o.kind, o.name, o.namespace]),
    ).toEqual([['LLMInferenceService', 'bge-m3', 'models']]);
  });

  it('refuses a namespace the cluster does not allow with 403 naming the config key', async () => {
    const res = await render({ cluster: 'local', namespace: 'kube-system' });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe(
      "namespace 'kube-system' is not open to model deployments on cluster local; allowed: default, models (modelManager.kubernetes.clusters.local.namespaces)",
    );
  });

  it('refuses an unknown cluster with 400 naming the known ones', async () => {
    const res = await render({ cluster: 'mars', namespace: 'models' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/mars/);
    expect(res.body.error.message).toMatch(/local/);
  });

  it('without a cluster renders for any namespace (the preview, unchanged)', async () => {
    const res = await render({ namespace: 'kube-system' });
    expect(res.status).toBe(200);
    expect(res.body.items[0].namespace).toBe('kube-system');
  });
});
