import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import {
  startModelManager,
  type ModelManagerTestContext,
} from '../__testUtils__/testBackend';
import { clientNodeLoaded } from './clientNode';

describe('@kubernetes/client-node is loaded on first use', () => {
  let mm: ModelManagerTestContext;
  afterAll(async () => {
    await mm?.stop();
  });

  it('not at start-up, nor to list, resolve or refuse a deploy; at the first deploy', async () => {
    mm = await startModelManager();
    const auth = {
      Authorization: mockCredentials.user.header('user:default/alice'),
    };
    const api = request(mm.server);
    expect((await api.get('/api/model-manager/models').set(auth)).status).toBe(
      200,
    );
    expect(
      (
        await api
          .get('/api/model-manager/models/qwen2-5-7b-instruct/resolved')
          .set(auth)
      ).status,
    ).toBe(200);
    const refused = await api
      .post('/api/model-manager/models/qwen2-5-7b-instruct/deploy')
      .set(auth)
      .send({ cluster: 'prod', namespace: 'models' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(
      "unknown cluster 'prod'; clusters: local",
    );
    expect(clientNodeLoaded()).toBe(false);
    expect(mm.kube.requestCount).toBe(0);

    const deployed = await api
      .post('/api/model-manager/models/qwen2-5-7b-instruct/deploy')
      .set(auth)
      .send({ cluster: 'local', namespace: 'models' });
    expect(deployed.status).toBe(200);
    expect(clientNodeLoaded()).toBe(true);
  });
});
