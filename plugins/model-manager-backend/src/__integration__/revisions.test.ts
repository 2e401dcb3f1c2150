import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import { useModelManager } from '../__testUtils__/testBackend';

const ALICE = mockCredentials.user.header('user:default/alice');

// A revision names a state of a target one can roll back to: what failed or removed nothing takes none.
describe('which history rows take a revision', () => {
  const ctx = useModelManager();
  const api = () => request(ctx.server);

  it('a failed deploy and an undeploy of nothing take none; the first deploy that applies is revision 1', async () => {
    ctx.kube.faults.inject({
      kind: 'status',
      code: 409,
      times: 1,
      match: {
        method: 'PATCH',
        pathIncludes: 'llminferenceservices/bge-reranker-v2-m3',
      },
    });
    const conflict = await api()
      .post('/api/model-manager/models/bge-reranker-v2-m3/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.deployment.revision).toBeUndefined();

    const nothing = await api()
      .delete('/api/model-manager/models/bge-reranker-v2-m3/deployment')
      .query({ cluster: 'local', namespace: 'default' })
      .set('Authorization', ALICE);
    expect(nothing.status).toBe(200);
    expect(nothing.body.objects.map((o: any) => o.action)).toEqual(['absent']);
    expect(nothing.body.revision).toBeUndefined();

    const applied = await api()
      .post('/api/model-manager/models/bge-reranker-v2-m3/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' });
    expect(applied.status).toBe(200);
    expect(applied.body.revision).toBe(1);

    const history = await api()
      .get('/api/model-manager/models/bge-reranker-v2-m3/deployments')
      .set('Authorization', ALICE);
    expect(
      history.body.items.map((r: any) => [
        r.action,
        r.outcome,
        r.revision,
        r.changesFromPrevious !== undefined,
      ]),
    ).toEqual([
      ['deploy', 'succeeded', 1, true],
      ['undeploy', 'succeeded', undefined, false],
      ['deploy', 'failed', undefined, false],
    ]);
  });
});
