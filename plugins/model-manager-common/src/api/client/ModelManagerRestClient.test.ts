import { modelManagerContract } from '../contract';
import {
  ModelManagerResponseError,
  ModelManagerRestClient,
  readErrorAnswer,
  type ModelManagerTransport,
} from './ModelManagerRestClient';

function transport(
  answer: () => Response,
  more: Partial<ModelManagerTransport> = {},
) {
  const fetch = jest.fn(
    async (_url: string, _init: { method: string; body?: string }) => answer(),
  );
  return {
    fetch,
    client: ModelManagerRestClient.create({
      fetch,
      baseUrl: async () => 'http://portal/api/model-manager',
      ...more,
    }),
  };
}
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

describe('ModelManagerRestClient', () => {
  it.each([
    {
      call: 'undeploy',
      input: {
        params: { name: 'qwen 2' },
        query: { cluster: 'prod', namespace: 'ml' },
      },
      method: 'DELETE',
      url: '/models/qwen%202/deployment?cluster=prod&namespace=ml',
    },
    {
      call: 'revisionDiff',
      input: { params: { name: 'a/b', revision: 3 } },
      method: 'GET',
      url: '/models/a%2Fb/deployments/3/diff',
    },
    {
      call: 'preflight',
      input: {
        params: { name: 'qwen' },
        query: {
          cluster: 'prod',
          namespace: 'ml',
          env: ['A=1', 'B=2'],
          arg: ['--x'],
          serverVersion: '',
          unset: undefined,
        },
      },
      method: 'GET',
      url: '/models/qwen/preflight?cluster=prod&namespace=ml&env=A%3D1&env=B%3D2&arg=--x',
    },
    {
      call: 'listModels',
      input: { query: { limit: 50, q: 'qwen 2' } },
      method: 'GET',
      url: '/models?limit=50&q=qwen+2',
    },
  ] as const)(
    '$call: $method $url (contract method, parameters encoded, unset query values left out)',
    async ({ call, input, method, url }) => {
      const { client, fetch } = transport(() => json({}));
      await client.call(call, input as any);
      expect(fetch).toHaveBeenCalledWith(
        `http://portal/api/model-manager${url}`,
        {
          method,
          headers: undefined,
          body: undefined,
        },
      );
      expect(modelManagerContract[call].method).toBe(method);
    },
  );

  it('sends a body as JSON and the token as a bearer token', async () => {
    const { client, fetch } = transport(() => json({ items: [] }), {
      token: async () => 'tok',
    });
    await client.call('render', {
      params: { name: 'qwen' },
      body: { namespace: 'ml' },
    });
    expect(fetch).toHaveBeenCalledWith(
      'http://portal/api/model-manager/models/qwen/render',
      {
        method: 'POST',
        headers: {
          Authorization: 'Bearer tok',
          'Content-Type': 'application/json',
        },
        body: '{"namespace":"ml"}',
      },
    );
  });

  it("answers the backend's JSON", async () => {
    const { client } = transport(() => json({ status: 'ok' }));
    await expect(client.call('health', {})).resolves.toEqual({ status: 'ok' });
  });

  it("throws the backend's message with the status and the body by default", async () => {
    const body = {
      error: { name: 'NotFoundError', message: "unknown model 'x'" },
    };
    const { client } = transport(() => json(body, 404));
    const error = await client
      .call('getModel', { params: { name: 'x' } })
      .catch(e => e);
    expect(error).toBeInstanceOf(ModelManagerResponseError);
    expect(error).toMatchObject({
      message: "unknown model 'x'",
      status: 404,
      body,
    });
  });

  it('names the request when the answer has no message', async () => {
    const { client } = transport(
      () => new Response('<html>bad gateway</html>', { status: 502 }),
    );
    await expect(client.call('catalogStatus', {})).rejects.toThrow(
      'the model-manager backend answered 502  to GET http://portal/api/model-manager/status: <html>bad gateway</html>',
    );
  });

  it("throws the transport's errors: for an error answer and for an unreachable backend", async () => {
    const refused = transport(() => json({ error: { message: 'no' } }, 403), {
      toError: async (response, request) =>
        new Error(`${request.method} ${request.path} ${response.status}`),
    });
    await expect(
      refused.client.call('getModel', { params: { name: 'x' } }),
    ).rejects.toThrow('GET /models/x 403');

    const down = transport(
      () => {
        throw new TypeError('fetch failed');
      },
      { unreachable: (e, r) => new Error(`${r.url}: ${(e as Error).message}`) },
    );
    await expect(down.client.call('catalogStatus', {})).rejects.toThrow(
      'http://portal/api/model-manager/status: fetch failed',
    );
  });
});

describe('readErrorAnswer', () => {
  it.each([
    {
      rule: "the backend's error answer: its message, and the body with what came along",
      answer: json(
        {
          error: { name: 'ConflictError', message: 'refused' },
          checks: [],
        },
        409,
      ),
      message: 'refused',
      body: {
        error: { name: 'ConflictError', message: 'refused' },
        checks: [],
      },
    },
    {
      rule: 'JSON without a message (a proxy, another plugin): no message',
      answer: json({ status: 'down' }, 502),
      message: undefined,
      body: { status: 'down' },
    },
    {
      rule: 'not JSON (an HTML error page): the text only',
      answer: new Response('<html>Bad Gateway</html>', { status: 502 }),
      message: undefined,
      body: undefined,
    },
    {
      rule: 'no body: empty text',
      answer: new Response(null, { status: 503 }),
      message: undefined,
      body: undefined,
    },
  ])('$rule', async ({ answer, message, body }) => {
    const text = await answer.clone().text();
    const read = await readErrorAnswer(answer);
    expect(read).toEqual({
      text,
      body,
      ...(message === undefined ? {} : { message }),
    });
  });
});
