import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_TOKEN, KubeApiTestServer } from '../index';
import { ResourceRegistry } from '../registry/ResourceRegistry';
import { defaultCrdDir } from '../registry/crdLoader';
import { request } from '../testing/httpClient';
import { JsonObject } from '../util/json';
import { Schema } from '../schema/typeNode';
import { compileRule } from './compileRule';
import { CelRuleUnsupportedError, celErrors, rulesOf } from './rules';
import { escapePropertyName, toCelValue } from './values';

/** Runs one expression with `self` (and `oldSelf`) typed by `schema`. */
const run = (
  rule: string,
  self: JsonObject | unknown[],
  schema?: Schema,
): unknown => {
  const compiled = compileRule(rule);
  if (!compiled.ok) throw new Error(compiled.error);
  const result = compiled.run({
    self: toCelValue(self as JsonObject, schema),
  });
  return result instanceof Error ? `error: ${result.message}` : result;
};

/** Every x-kubernetes-validations entry of every CRD in test-assets/crds. */
function crdRules(): Array<{ where: string; expression: string }> {
  const out: Array<{ where: string; expression: string }> = [];
  const registry = ResourceRegistry.create({ crdDir: defaultCrdDir() });
  const visit = (schema: unknown, where: string): void => {
    if (Array.isArray(schema)) {
      schema.forEach(s => visit(s, where));
      return;
    }
    if (typeof schema !== 'object' || schema === null) return;
    for (const rule of rulesOf(schema as Schema)) {
      out.push({ where, expression: rule.rule });
      if (rule.messageExpression)
        out.push({ where, expression: rule.messageExpression });
    }
    for (const [k, v] of Object.entries(schema)) visit(v, `${where}/${k}`);
  };
  for (const rt of registry.all().filter(r => !r.builtin))
    visit(rt.schema, `${rt.plural}.${rt.group}/${rt.version}`);
  const unique = new Map(out.map(r => [r.expression, r]));
  return [...unique.values()];
}

describe('the CRD rules in test-assets/crds', () => {
  const rules = crdRules();

  it('are found (the CRDs declare about a hundred distinct rules)', () => {
    expect(rules.length).toBeGreaterThan(90);
  });

  it.each(rules)('compiles: $expression ($where)', ({ expression }) => {
    const compiled = compileRule(expression);
    expect(compiled.ok ? 'compiles' : compiled.error).toBe('compiles');
  });

  it('leave nothing for the server to report', () => {
    const registry = ResourceRegistry.create({ crdDir: defaultCrdDir() });
    expect(registry.celRuleReports()).toEqual([]);
  });
});

describe('evaluation with @bufbuild/cel', () => {
  it.each([
    ['!(has(self.replicas) && has(self.scaling))', { replicas: 1 }, true],
    [
      '!(has(self.replicas) && has(self.scaling))',
      { replicas: 1, scaling: {} },
      false,
    ],
    ['has(self.wva) || has(self.keda)', {}, false],
    ['has(self.wva) || has(self.keda)', { keda: {} }, true],
    ['size(self.name) == 0', { name: '' }, true],
    ['self.name.size() > 2', { name: 'abc' }, true],
    ["!('*' in self && self.size() > 1)", ['*', 'GET'], false],
    ["!('*' in self && self.size() > 1)", ['*'], true],
    ['self.all(x, x.startsWith("a"))', ['ab', 'ac'], true],
    ['self.exists_one(x, x > 1)', [1, 2, 3], false],
    ['self.filter(x, x > 1).size() == 2', [1, 2, 3], true],
    ['self.x.y == 1 || true', {}, true],
    ['self.all(key, key.split("/")[0].size() < 253)', { 'a/b': 'x' }, true],
    [
      'self.value.matches(r"""^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?$""")',
      { value: '*.ab' },
      true,
    ],
    [
      "!(has(self.request) && has(self.backendRequest) && duration(self.request) != duration('0s') && duration(self.backendRequest) > duration(self.request))",
      { request: '10s', backendRequest: '1m' },
      false,
    ],
    ['{"Auto":0,"1.0":1}[self.minVersion] <= 3', { minVersion: '1.0' }, true],
  ])('%s with %j is %s', (rule, self, expected) => {
    expect(run(rule, self)).toBe(expected);
  });

  it('types values by the schema: integer fields are CEL int, number fields double', () => {
    const schema: Schema = {
      type: 'object',
      properties: {
        min: { type: 'integer' },
        ratio: { type: 'number' },
      },
    };
    expect(
      run('self.min == 1 && type(self.min) == int', { min: 1 }, schema),
    ).toBe(true);
    expect(run('type(self.ratio) == double', { ratio: 1 }, schema)).toBe(true);
    // CEL has no implicit int/string conversion; kube-apiserver says "no such overload".
    expect(run('self.min < "x"', { min: 1 }, schema)).toMatch(/^error: /);
  });

  it.each([
    ['namespace', '__namespace__'],
    ['x-y', 'x__dash__y'],
    ['a.b/c', 'a__dot__b__slash__c'],
    ['a__b', 'a__underscores__b'],
    ['plain', 'plain'],
    ['with space', undefined],
  ])('escapes property %s as %s (k8s escaping.go)', (name, escaped) => {
    expect(escapePropertyName(name)).toBe(escaped);
  });
});

const schemaWith = (spec: Schema): Schema => ({
  type: 'object',
  properties: { spec },
});

describe('celErrors', () => {
  it('reports runtime errors in cel-go words', () => {
    const schema = schemaWith({
      type: 'object',
      'x-kubernetes-validations': [
        { rule: 'self.c.d == 1', message: 'needs c.d' },
        { rule: 'self.a < "x"' },
      ],
      properties: {
        a: { type: 'integer' },
        c: { type: 'object', properties: { d: { type: 'integer' } } },
      },
    });
    expect(celErrors({ spec: { a: 1, c: {} } }, schema)).toEqual([
      {
        type: 'Invalid',
        field: 'spec',
        value: 'object',
        detail: 'no such key: d evaluating rule: needs c.d',
      },
      {
        type: 'Invalid',
        field: 'spec',
        value: 'object',
        detail:
          '\'no such overload\': call arguments did not match a supported operator, function or macro signature for rule: self.a < "x"',
      },
    ]);
  });

  it('evaluates transition rules only when an old value exists', () => {
    const schema = schemaWith({
      type: 'object',
      properties: {
        mode: {
          type: 'string',
          'x-kubernetes-validations': [
            { rule: 'self == oldSelf', message: 'immutable' },
          ],
        },
      },
    });
    expect(celErrors({ spec: { mode: 'b' } }, schema)).toEqual([]);
    expect(
      celErrors({ spec: { mode: 'b' } }, schema, { spec: { mode: 'b' } }),
    ).toEqual([]);
    expect(
      celErrors({ spec: { mode: 'b' } }, schema, { spec: { mode: 'a' } }),
    ).toEqual([
      {
        type: 'Invalid',
        field: 'spec.mode',
        value: 'string',
        detail: 'immutable',
      },
    ]);
  });

  it('reports rules like kube-apiserver: message, default message, reason, fieldPath and messageExpression', () => {
    const schema = schemaWith({
      type: 'object',
      'x-kubernetes-validations': [
        { rule: 'has(self.a)' },
        {
          rule: 'self.b == 1',
          message: 'b must be 1',
          reason: 'FieldValueForbidden',
          fieldPath: '.b',
        },
        {
          rule: 'self.b < 2',
          message: 'too big',
          messageExpression: "'b is ' + string(self.b) + ', at most 1'",
        },
      ],
      properties: {
        a: { type: 'string' },
        b: { type: 'integer' },
      },
    });
    expect(celErrors({ spec: { b: 2 } }, schema)).toEqual([
      {
        type: 'Invalid',
        field: 'spec',
        value: 'object',
        detail: 'failed rule: has(self.a)',
      },
      { type: 'Forbidden', field: 'spec.b', detail: 'b must be 1' },
      {
        type: 'Invalid',
        field: 'spec',
        value: 'object',
        detail: 'b is 2, at most 1',
      },
    ]);
  });

  it('reaches properties named after CEL keywords through their escaped name, as Gateway API parentRefs rules do', () => {
    const rule =
      "self.all(p1, self.exists_one(p2, p1.name == p2.name && (has(p1.__namespace__) ? p1.__namespace__ : '') == (has(p2.__namespace__) ? p2.__namespace__ : '')))";
    const schema = schemaWith({
      type: 'object',
      properties: {
        parentRefs: {
          type: 'array',
          'x-kubernetes-validations': [{ rule, message: 'duplicate parent' }],
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              namespace: { type: 'string' },
            },
          },
        },
      },
    });
    const refs = (...ns: string[]) => ({
      spec: { parentRefs: ns.map(n => ({ name: 'gw', namespace: n })) },
    });
    expect(celErrors(refs('a', 'b'), schema)).toEqual([]);
    expect(celErrors(refs('a', 'a'), schema)).toEqual([
      {
        type: 'Invalid',
        field: 'spec.parentRefs',
        value: 'array',
        detail: 'duplicate parent',
      },
    ]);
  });

  it.each([
    [
      'quantity(self.x).isGreaterThan(quantity("1"))',
      /undeclared function 'quantity'/,
    ],
    ['self.?x.orValue(1) == 1', /syntax error/],
    ['nope == 1', /undeclared reference to 'nope'/],
    ['self == oldSelf', /optionalOldSelf is not supported/, true],
  ])(
    'refuses to skip %s: it throws, naming the rule and why',
    (rule, why, optionalOldSelf = false) => {
      const schema = schemaWith({
        type: 'object',
        'x-kubernetes-validations': [{ rule, optionalOldSelf }],
        properties: { x: { type: 'string' } },
      });
      let thrown: unknown;
      try {
        celErrors({ spec: { x: '1' } }, schema);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(CelRuleUnsupportedError);
      expect((thrown as Error).message).toContain(JSON.stringify(rule));
      expect((thrown as Error).message).toContain('at spec:');
      expect((thrown as Error).message).toMatch(why);
    },
  );
});

describe('a CRD with a rule the double cannot evaluate', () => {
  const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: { kind: Widget, plural: widgets, singular: widget, listKind: WidgetList }
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              x-kubernetes-validations:
                - rule: quantity(self.size).isLessThan(quantity('1Gi'))
                  message: at most 1Gi
              properties:
                size: { type: string }
`;
  let dir: string;
  let server: KubeApiTestServer;
  const warnings: string[] = [];
  let emitWarning: jest.SpyInstance;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cel-crd-'));
    fs.writeFileSync(path.join(dir, 'widget.yaml'), CRD);
    emitWarning = jest
      .spyOn(process, 'emitWarning')
      .mockImplementation((w: string | Error) => {
        warnings.push(String(w));
      });
    server = await KubeApiTestServer.start({
      crdDir: dir,
      namespaces: ['demo'],
    });
  }, 120_000);

  afterAll(async () => {
    emitWarning.mockRestore();
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('is listed at start-up with CRD, path and rule', () => {
    const expected = {
      crd: 'widgets.example.com/v1',
      path: 'spec',
      expression: "quantity(self.size).isLessThan(quantity('1Gi'))",
      error: "undeclared function 'isLessThan', undeclared function 'quantity'",
    };
    expect(server.celRuleReports).toEqual([expected]);
    expect(warnings.join('\n')).toContain(
      `widgets.example.com/v1 spec: ${expected.expression}`,
    );
  });

  it('answers 500 naming the rule to an object that reaches it, instead of accepting it', async () => {
    const res = await request(server.url, {
      method: 'PATCH',
      path: '/apis/example.com/v1/namespaces/demo/widgets/w?fieldManager=t',
      token: ADMIN_TOKEN,
      contentType: 'application/apply-patch+yaml',
      body: 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 2Gi}\n',
    });
    expect(res.status).toBe(500);
    expect(res.json.message).toContain(
      'cannot evaluate the x-kubernetes-validations expression',
    );
    expect(res.json.message).toContain('quantity(self.size)');
  }, 120_000);
});
