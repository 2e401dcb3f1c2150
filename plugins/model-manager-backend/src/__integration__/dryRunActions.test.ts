import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import { useModelManager } from '../__testUtils__/testBackend';

const ALICE = mockCredentials.user.header('user:default/alice');

// A dry run's answer keeps the live resourceVersion (kube-apiserver v1.34.9 and the double alike):
// whether it would change an object is told from the content.
describe('a dry run of a deployed model', () => {
  const ctx = useModelManager();
  const deploy = (model: string, body: Record<string, unknown> = {}) =>
    request(ctx.server)
      .post(`/api/model-manager/models/${model}/deploy`)
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models', ...body });

  it.each([
    {
      rule: 'one object, changed',
      model: 'bge-reranker-v2-m3',
      change: { env: { VLLM_LOGGING_LEVEL: 'DEBUG' } },
      actions: ['configured'],
    },
    {
      rule: 'one object, as deployed',
      model: 'bge-reranker-v2-m3',
      change: {},
      actions: ['unchanged'],
    },
    {
      rule: 'several objects, the InferenceService changed',
      model: 'bge-small-en-v1-5-ov',
      change: { env: { OVMS_LOG_LEVEL: 'DEBUG' } },
      actions: [
        'exists',
        'exists',
        'unchanged',
        'configured',
        'unchanged',
        'unchanged',
        'unchanged',
      ],
    },
  ])('$rule', async ({ model, change, actions }) => {
    expect((await deploy(model)).status).toBe(200);
    const dry = await deploy(model, { dryRun: true, ...change });
    expect(dry.status).toBe(200);
    expect(dry.body.objects.map((o: any) => o.action)).toEqual(actions);
    // The fields listed agree with the action.
    expect(
      dry.body.objects.map((o: any) => (o.changes?.length ?? 0) > 0),
    ).toEqual(actions.map(a => a === 'configured'));
  });
});
