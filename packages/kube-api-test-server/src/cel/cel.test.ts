import { JsonObject } from '../util/json';
import { CelRuntimeError, CelUnsupported } from './ast';
import { evaluate } from './evaluate';
import { parseCel } from './parser';
import { celErrors } from './rules';

const run = (rule: string, self: unknown, oldSelf?: unknown) =>
  evaluate(parseCel(rule), { self, oldSelf });

describe('CEL subset', () => {
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
    [
      "self.protocol == 'GRPC' ? has(self.grpc) : true",
      { protocol: 'HTTP' },
      true,
    ],
    [
      "self.protocol == 'GRPC' ? has(self.grpc) : true",
      { protocol: 'GRPC' },
      false,
    ],
    [
      'self.numerator <= self.denominator',
      { numerator: 1, denominator: 2 },
      true,
    ],
    ["!('*' in self && self.size() > 1)", ['*', 'GET'], false],
    ["!('*' in self && self.size() > 1)", ['*'], true],
    ['self.all(x, x.startsWith("a"))', ['ab', 'ac'], true],
    ['self.exists(x, x == "b")', ['a'], false],
    ['self.exists_one(x, x > 1)', [1, 2, 3], false],
    ['self.filter(x, x > 1).size() == 2', [1, 2, 3], true],
    ['self.map(x, x * 2) == [2, 4]', [1, 2], true],
    ['self.a + "-" + self.b == "x-y"', { a: 'x', b: 'y' }, true],
    ["self.name.matches('^[a-z]+$')", { name: 'abc' }, true],
    ['self.x.y == 1 || true', {}, true],
    ['true || self.x.y == 1', {}, true],
  ])('%s with %j is %s', (rule, self, expected) => {
    expect(run(rule, self)).toBe(expected);
  });

  it.each([
    ['self.x == 1', {}, 'no such key: x'],
    ['self.x.y == 1 && true', { x: {} }, 'no such key: y'],
    ['self[3] == 1', [1], 'index out of bounds: 3'],
    ['self.a < "x"', { a: 1 }, 'no such overload'],
  ])('%s with %j fails with %s', (rule, self, message) => {
    expect(() => run(rule, self)).toThrow(new CelRuntimeError(message));
  });

  it.each([
    ['self.?x'],
    ['quantity(self.x).isGreaterThan(quantity("1"))'],
    ['self.x @ 1'],
  ])('marks %s as unsupported', rule => {
    expect(() => run(rule, { x: '1' })).toThrow(CelUnsupported);
  });

  it('evaluates transition rules only when an old value exists', () => {
    expect(run('self == oldSelf', 1, 1)).toBe(true);
    const schema: JsonObject = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            mode: {
              type: 'string',
              'x-kubernetes-validations': [
                { rule: 'self == oldSelf', message: 'immutable' },
              ],
            },
          },
        },
      },
    };
    expect(celErrors({ spec: { mode: 'b' } }, schema)).toEqual([]);
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

  it('reports rules like kube-apiserver: message, default message, reason, fieldPath and runtime errors', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          'x-kubernetes-validations': [
            { rule: 'has(self.a)' },
            {
              rule: 'self.b == 1',
              message: 'b must be 1',
              reason: 'FieldValueForbidden',
              fieldPath: '.b',
            },
            { rule: 'self.c.d == 1', message: 'needs c.d' },
          ],
          properties: {
            a: { type: 'string' },
            b: { type: 'integer' },
            c: { type: 'object' },
          },
        },
      },
    };
    expect(celErrors({ spec: { b: 2, c: {} } }, schema)).toEqual([
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
        detail: 'no such key: d evaluating rule: needs c.d',
      },
    ]);
  });
});
