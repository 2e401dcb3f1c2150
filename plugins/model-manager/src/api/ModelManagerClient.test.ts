import { errorText } from './errorText';
import { ModelManagerClient } from './ModelManagerClient';

function client(body: unknown = {}, status = 200) {
  const fetch = jest.fn(
    async (_url: string, _init?: RequestInit) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      }),
  );
  const api = ModelManagerClient.create({
    discoveryApi: {
      getBaseUrl: async () => 'http://backend/api/model-manager',
    },
    fetchApi: { fetch: fetch as unknown as typeof globalThis.fetch },
  });
  return { api, fetch };
}

describe('ModelManagerClient', () => {
  it.each([
    ['fleet without filters', (a: ModelManagerClient) => a.fleet(), '/fleet'],
    [
      'fleet with the filters set',
      (a: ModelManagerClient) =>
        a.fleet({ cluster: 'prod', namespace: undefined, state: 'NotReady' }),
      '/fleet?cluster=prod&state=NotReady',
    ],
    [
      "a model's fleet",
      (a: ModelManagerClient) => a.modelFleet('qwen 2'),
      '/models/qwen%202/fleet',
    ],
    [
      'the rollout plan',
      (a: ModelManagerClient) =>
        a.rolloutPlan({ runtime: 'vllm', version: '0.24.0' }),
      '/rollouts/plan?runtime=vllm&version=0.24.0',
    ],
    [
      'the rollout plan with held targets',
      (a: ModelManagerClient) =>
        a.rolloutPlan({ runtime: 'vllm', includeHeld: true }),
      '/rollouts/plan?runtime=vllm&includeHeld=true',
    ],
    [
      'the rollout plan without held targets',
      (a: ModelManagerClient) =>
        a.rolloutPlan({ runtime: 'vllm', includeHeld: false }),
      '/rollouts/plan?runtime=vllm',
    ],
    [
      "a revision's diff",
      (a: ModelManagerClient) => a.revisionDiff('qwen 2', 3),
      '/models/qwen%202/deployments/3/diff',
    ],
    [
      'a page of models with the filters set',
      (a: ModelManagerClient) =>
        a.queryModels({
          runtime: 'vllm',
          owner: undefined,
          q: 'qwen 2',
          sort: '-version',
          limit: 50,
          offset: 0,
        }),
      '/models?runtime=vllm&q=qwen+2&sort=-version&limit=50&offset=0',
    ],
    ['every model', (a: ModelManagerClient) => a.listModels(), '/models'],
  ])('GETs %s', async (_name, call, path) => {
    const { api, fetch } = client({ items: [], errors: [], readAt: 'now' });
    await call(api);
    expect(fetch).toHaveBeenCalledWith(
      `http://backend/api/model-manager${path}`,
      expect.objectContaining({ method: 'GET' }),
    );
  });

  it.each([
    [{ dryRun: true }, { revision: 2, dryRun: true }],
    [{}, { revision: 2 }],
  ])('POSTs a rollback with %j as %j', async (options, body) => {
    const { api, fetch } = client({
      ok: true,
      action: 'rollback',
      objects: [],
    });
    await api.rollback('qwen', 2, options);
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('http://backend/api/model-manager/models/qwen/rollback');
    expect(JSON.parse(init!.body as string)).toEqual(body);
  });

  it('DELETEs a deployment of one target', async () => {
    const { api, fetch } = client({
      ok: true,
      action: 'undeploy',
      objects: [],
    });
    await api.undeploy('qwen 2', { cluster: 'prod', namespace: 'ml' });
    expect(fetch).toHaveBeenCalledWith(
      'http://backend/api/model-manager/models/qwen%202/deployment?cluster=prod&namespace=ml',
      expect.objectContaining({ method: 'DELETE', body: undefined }),
    );
  });

  it("throws the backend's error with its message", async () => {
    const { api } = client(
      {
        error: { name: 'NotFoundError', message: "unknown runtime 'tgi'" },
        request: { method: 'GET', url: '/rollouts/plan' },
        response: { statusCode: 404 },
      },
      404,
    );
    const error = await api.rolloutPlan({ runtime: 'tgi' }).catch(e => e);
    expect(errorText(error)).toBe("unknown runtime 'tgi' (404)");
  });
});
