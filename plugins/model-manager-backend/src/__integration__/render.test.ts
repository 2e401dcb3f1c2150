import { mockCredentials } from '@backstage/backend-test-utils';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import request from 'supertest';
import {
  startModelManager,
  useModelManager,
} from '../__testUtils__/testBackend';

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
  beforeEach(() => {
    ctx.kube.resetRequests();
    ctx.events.length = 0;
  });
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

  it('checks model-manager.model.render on the model entity and audits the render as the user', async () => {
    const res = await render({ cluster: 'local', namespace: 'models' });
    expect(res.status).toBe(200);
    expect(ctx.events).toEqual([
      expect.objectContaining({
        eventId: 'model-render',
        outcome: 'success',
        meta: expect.objectContaining({
          actor: 'user:default/alice',
          model: 'bge-m3',
          cluster: 'local',
          namespace: 'models',
        }),
        successMeta: { objects: 1 },
      }),
    ]);
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

describe('POST /models/:name/render for a user without model-manager.model.render', () => {
  it('refuses the GitOps render with 403 naming who, what and why, audited; the preview stays open', async () => {
    const ctx = await startModelManager({ permission: AuthorizeResult.DENY });
    try {
      ctx.kube.resetRequests();
      const render = (body: object) =>
        request(ctx.server)
          .post('/api/model-manager/models/bge-m3/render')
          .set('Authorization', ALICE)
          .send(body);
      const res = await render({ cluster: 'local', namespace: 'models' });
      expect(res.status).toBe(403);
      expect(res.body.error).toEqual({
        name: 'NotAllowedError',
        message:
          'user:default/alice may not model-manager.model.render model bge-m3 (component:default/bge-m3): the permission policy denied it',
      });
      expect(res.body.items).toBeUndefined();
      expect(ctx.events).toEqual([
        expect.objectContaining({
          eventId: 'model-render',
          outcome: 'fail',
          meta: expect.objectContaining({
            actor: 'user:default/alice',
            model: 'bge-m3',
            cluster: 'local',
            namespace: 'models',
          }),
        }),
      ]);
      // The Serving tab's preview (no cluster) is not a GitOps render: not checked, not audited.
      ctx.events.length = 0;
      const preview = await render({ namespace: 'models' });
      expect(preview.status).toBe(200);
      expect(preview.body.items.map((o: any) => o.kind)).toEqual([
        'LLMInferenceService',
      ]);
      expect(ctx.events).toEqual([]);
      expect(ctx.kube.requestCount).toBe(0);
    } finally {
      await ctx.stop();
    }
  });
});
