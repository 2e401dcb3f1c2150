/** Fault injection: error statuses, latency, dropped connections and outages. */
import { ADMIN_TOKEN, KubeApiTestServer } from './index';
import { request } from './testing/httpClient';

const PATH =
  '/apis/serving.kserve.io/v1beta1/namespaces/default/inferenceservices/x';

describe('fault injection', () => {
  let server: KubeApiTestServer;
  const get = (path = PATH, method = 'GET') =>
    request(server.url, { path, method, token: ADMIN_TOKEN });

  beforeAll(async () => {
    server = await KubeApiTestServer.start();
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  beforeEach(() => {
    server.faults.clear();
    server.resetRequests();
  });

  it.each([
    [
      500,
      'InternalError',
      'Internal error occurred: injected fault',
      undefined,
    ],
    [
      503,
      'ServiceUnavailable',
      'the server is currently unable to handle the request',
      '7',
    ],
    [429, 'TooManyRequests', 'Too many requests, please try again later.', '7'],
    [
      409,
      'Conflict',
      'Operation cannot be fulfilled on inferenceservices.serving.kserve.io "x": the object has been modified; please apply your changes to the latest version and try again',
      undefined,
    ],
  ] as const)(
    'answers %s with a %s Status',
    async (code, reason, message, retryAfter) => {
      server.faults.inject({
        kind: 'status',
        code,
        retryAfterSeconds: code === 500 || code === 409 ? undefined : 7,
      });
      const res = await get();
      expect(res.status).toBe(code);
      expect(res.json).toEqual(
        expect.objectContaining({ kind: 'Status', reason, message, code }),
      );
      expect(res.headers['retry-after']).toBe(retryAfter);
      expect((await get()).status).toBe(404);
    },
  );

  it('affects `times` matching requests and only those', async () => {
    server.faults.inject({
      kind: 'status',
      code: 503,
      times: 2,
      match: { method: 'patch', pathIncludes: '/inferenceservices/' },
    });
    expect((await get()).status).toBe(404);
    expect((await get(PATH, 'PATCH')).status).toBe(503);
    expect((await get(PATH, 'PATCH')).status).toBe(503);
    expect((await get(PATH, 'PATCH')).status).not.toBe(503);
    expect(server.requestCount).toBe(4);
  });

  it('drops the connection without answering', async () => {
    server.faults.inject({ kind: 'drop' });
    await expect(get()).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(server.requestCount).toBe(1);
    expect((await get()).status).toBe(404);
  });

  it('delays answers', async () => {
    server.faults.inject({ kind: 'latency', ms: 50 });
    const start = Date.now();
    expect((await get()).status).toBe(404);
    expect(Date.now() - start).toBeGreaterThanOrEqual(45);
  });

  it('refuses every connection while down, until cleared', async () => {
    server.faults.inject({ kind: 'down' });
    await expect(get()).rejects.toThrow(
      /socket hang up|ECONNRESET|ECONNREFUSED/,
    );
    await expect(get('/version')).rejects.toThrow();
    expect(server.requestCount).toBe(0);
    server.faults.clear();
    expect((await get('/version')).status).toBe(200);
  });
});
