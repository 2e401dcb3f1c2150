import { mockCredentials } from '@backstage/backend-test-utils';
import request from 'supertest';
import { useModelManager } from '../__testUtils__/testBackend';

const ALICE = mockCredentials.user.header('user:default/alice');
const base = { cluster: 'local', namespace: 'models' };

/** Requests that must be refused with 400/404 before anything reaches the Kubernetes API. */
function hostileRequests(): Array<{
  name: string;
  model: string;
  body: unknown;
  status: number[];
  message: RegExp;
}> {
  const out: Array<{
    name: string;
    model: string;
    body: unknown;
    status: number[];
    message: RegExp;
  }> = [];
  const add = (
    name: string,
    body: unknown,
    message: RegExp,
    model = 'qwen2-5-7b-instruct',
    status = [400],
  ) => out.push({ name, model, body, status, message });

  const badNamespaces = [
    'Models',
    'models_1',
    '-models',
    'models-',
    'a'.repeat(64),
    'models.prod',
    'mödels',
    'models ns',
    '',
    'models\n',
    '../etc',
    'MODELS',
    'ns;rm -rf /',
    '$(id)',
    '`id`',
    'a/b',
    'a:b',
    '*',
    'models%0a',
    '\u0000',
  ];
  for (const ns of badNamespaces)
    add(
      `namespace ${JSON.stringify(ns).slice(0, 30)}`,
      { ...base, namespace: ns },
      /namespace/,
    );

  const badEnvNames = [
    '1ABC',
    'A-B',
    'A B',
    'A.B',
    'A=B',
    '',
    'Ä',
    'A\nB',
    '$HOME',
    'A;B',
    'A`B`',
    '-A',
    'A/B',
    'a'.repeat(300),
    'A\u0000',
    '{{A}}',
    '${A}',
    'A:B',
    'A,B',
    '[A]',
  ];
  for (const n of badEnvNames)
    add(
      `env name ${JSON.stringify(n).slice(0, 30)}`,
      { ...base, env: { [n]: 'x' } },
      /env/,
    );

  const badValues = [
    'a\nb',
    'a\r\nb',
    '\n',
    'x\u0000y',
    'first\nsecond: injected',
    '- item\n- two',
    'x'.repeat(1024 * 1024),
    'y'.repeat(16385),
    '\r',
    'line\u0000',
  ];
  for (const v of badValues)
    add(
      `env value ${JSON.stringify(v).slice(0, 30)}`,
      { ...base, env: { GOOD: v } },
      /env\.GOOD: env value/,
    );
  for (const v of badValues)
    add(
      `arg ${JSON.stringify(v).slice(0, 30)}`,
      { ...base, args: [`--x=${v}`] },
      /args\[0\]: arg/,
    );
  for (const a of [
    '8192',
    'value',
    '',
    ' --x',
    'x=1',
    '$(id)',
    'rm -rf /',
    '{"a":1}',
    '1',
    'model',
  ])
    add(
      `arg not a flag ${JSON.stringify(a)}`,
      { ...base, args: [a] },
      /args\[0\]/,
    );

  const wrongTypes: Array<[string, Record<string, unknown>]> = [
    ['cluster number', { ...base, cluster: 1 }],
    ['cluster null', { ...base, cluster: null }],
    ['namespace list', { ...base, namespace: ['models'] }],
    ['env list', { ...base, env: ['A=1'] }],
    ['env string', { ...base, env: 'A=1' }],
    ['env value number', { ...base, env: { A: 1 } }],
    ['env value object', { ...base, env: { A: { b: 1 } } }],
    ['args string', { ...base, args: '--x' }],
    ['args of numbers', { ...base, args: [1, 2] }],
    ['args of objects', { ...base, args: [{ a: 1 }] }],
    ['dryRun string', { ...base, dryRun: 'true' }],
    ['force number', { ...base, force: 1 }],
    ['serverVersion number', { ...base, serverVersion: 0.24 }],
    ['unknown field', { ...base, replicas: 3 }],
    [
      'prototype pollution',
      JSON.parse(
        '{"cluster":"local","namespace":"models","__proto__":{"admin":true}}',
      ),
    ],
  ];
  for (const [name, body] of wrongTypes)
    add(
      `wrong type: ${name}`,
      body,
      /invalid deploy request|unknown field|must be/,
    );
  add('body is an array', [base], /invalid deploy request/);
  add(
    'body is a string',
    JSON.stringify('x'),
    /invalid request body: it must be a JSON object/,
  );
  add(
    'body is not JSON',
    '{"cluster": ',
    /invalid request body: it must be a JSON object/,
  );

  for (const v of [
    '9.9.9',
    '0.24',
    'latest',
    '0.24.0\n',
    '../0.24.0',
    '0.24.0;id',
    'v0.24.0',
    '',
  ]) {
    add(
      `server version ${JSON.stringify(v)}`,
      { ...base, serverVersion: v },
      /server version|serverVersion/,
      'qwen2-5-7b-instruct',
      [400, 404],
    );
  }
  add(
    'server version on OpenVINO',
    { ...base, serverVersion: '0.24.0' },
    /runtime openvino is flat/,
    'bge-small-en-v1-5-ov',
  );
  add(
    'MoE flag on a dense model',
    { ...base, args: ['--enable-expert-parallel'] },
    /--enable-expert-parallel is a MoE-only flag/,
  );
  for (const c of ['prod', 'LOCAL', 'local ', '', 'local\n'])
    add(`cluster ${JSON.stringify(c)}`, { ...base, cluster: c }, /cluster/);
  for (const m of [
    'nope',
    'Qwen',
    'qwen2-5-7b-instruct-x',
    '__proto__',
    'constructor',
    '..%2F..%2Fetc',
    'a'.repeat(300),
  ]) {
    add(`unknown model ${m.slice(0, 20)}`, base, /unknown model/, m, [404]);
  }
  return out;
}

describe('hostile deploy requests', () => {
  const ctx = useModelManager();

  const cases = hostileRequests();
  it('has at least 100 cases', () =>
    expect(cases.length).toBeGreaterThanOrEqual(100));

  it.each(cases.map(c => [c.name, c] as const))('%s', async (_name, c) => {
    ctx.kube.resetRequests();
    const res = await request(ctx.server)
      .post(`/api/model-manager/models/${encodeURIComponent(c.model)}/deploy`)
      .set('Authorization', ALICE)
      .set('Content-Type', 'application/json')
      .send(typeof c.body === 'string' ? c.body : JSON.stringify(c.body));
    expect(c.status).toContain(res.status);
    expect(res.body.error.message).toMatch(c.message);
    expect(ctx.kube.requestCount).toBe(0);
    expect(ctx.events).toEqual([]);
  });
});
