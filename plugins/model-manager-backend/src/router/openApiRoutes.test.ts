import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import { useModelManager } from '../__testUtils__/testBackend';

describe('GET /api/model-manager/openapi.json', () => {
  const ctx = useModelManager();

  it('serves the OpenAPI document of the contract to a signed-in caller', async () => {
    const res = await request(ctx.server)
      .get('/api/model-manager/openapi.json')
      .set('Authorization', mockCredentials.user.header());
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({
      openapi: '3.0.3',
      servers: [{ url: '/api/model-manager' }],
    });
    expect(res.body.paths['/models/{name}/deploy'].post.operationId).toBe(
      'deploy',
    );
  });
});
