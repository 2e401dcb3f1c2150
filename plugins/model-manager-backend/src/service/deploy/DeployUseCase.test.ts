import { mockCredentials } from '@backstage/backend-test-utils';
import * as common from '@model-manager/plugin-model-manager-common';
import request from 'supertest';
import { useModelManager } from '../../__testUtils__/testBackend';

// The resolver, counted: the backend under test imports this module, so every resolution of a
// request goes through the spy.
jest.mock('@model-manager/plugin-model-manager-common', () => {
  const actual = jest.requireActual(
    '@model-manager/plugin-model-manager-common',
  );
  return { ...actual, resolveServer: jest.fn(actual.resolveServer) };
});

const ALICE = mockCredentials.user.header('user:default/alice');
const resolveServer = common.resolveServer as jest.MockedFunction<
  typeof common.resolveServer
>;
/** How many times the resolver resolved `model` since the last `mockClear`. */
const resolutionsOf = (model: string) =>
  resolveServer.mock.calls.filter(([, name]) => name === model).length;

describe('a deploy resolves its model once', () => {
  const ctx = useModelManager();
  const api = () => request(ctx.server);
  // The model summaries (one resolution per model) are built once per catalog load, in the
  // background after start-up; GET /models builds them now, so none runs during a deploy.
  beforeAll(async () => {
    const res = await api()
      .get('/api/model-manager/models')
      .set('Authorization', ALICE);
    expect(res.status).toBe(200);
  });

  it.each([
    { case: 'a deploy that applies', dryRun: false },
    { case: 'a dry run', dryRun: true },
  ])('$case', async ({ dryRun }) => {
    const model = 'qwen2-5-7b-instruct';
    resolveServer.mockClear();
    const res = await api()
      .post(`/api/model-manager/models/${model}/deploy`)
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models', dryRun });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    // Checking the request, preflight, rendering, applying and the answer's endpoint (its
    // api_prefix) all read the one resolution.
    expect(resolutionsOf(model)).toBe(1);
  });

  it('a rollout target', async () => {
    const model = 'llama-3-1-8b-instruct';
    resolveServer.mockClear();
    const res = await api()
      .post('/api/model-manager/rollouts/apply')
      .set('Authorization', ALICE)
      .send({
        runtime: 'vllm',
        rolloutId: 'resolve-once',
        targets: [
          { model, cluster: 'local', namespace: 'models', overrides: {} },
        ],
      });
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      expect.objectContaining({ model, outcome: 'applied' }),
    ]);
    expect(resolutionsOf(model)).toBe(1);
  });
});
