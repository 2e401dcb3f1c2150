import { fieldErrorString } from '../api/fieldErrors';
import { JsonObject } from '../util/json';
import { normalizeObject } from './normalize';
import { withObjectMeta } from './objectMeta';
import { joinTypedErrors, typedErrors } from './typedCheck';
import { validateAgainstSchema } from './validator';

const SCHEMA = withObjectMeta({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['model'],
      properties: {
        model: { type: 'string', pattern: '^[a-z]+$' },
        replicas: { type: 'integer', minimum: 0, maximum: 10 },
        mode: { type: 'string', enum: ['a', 'b'] },
        enabled: { type: 'boolean' },
        cpu: {
          'x-kubernetes-int-or-string': true,
          anyOf: [{ type: 'integer' }, { type: 'string' }],
        },
        name: { type: 'string', maxLength: 3 },
        when: { type: 'string', format: 'date-time' },
        protocol: { type: 'string', default: 'TCP' },
        note: { type: 'string', nullable: true },
        items: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', properties: { name: { type: 'string' } } },
        },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
});

const obj = (spec: JsonObject): JsonObject => ({
  apiVersion: 'x/v1',
  kind: 'T',
  metadata: { name: 'n' },
  spec,
});

describe('typed patch checks (structured-merge-diff)', () => {
  it.each([
    [{ model: 'a', unknown: 1 }, '.spec.unknown: field not declared in schema'],
    [
      { model: 'a', replicas: 'two' },
      '.spec.replicas: expected numeric (int or float), got string',
    ],
    [
      { model: 1 },
      '.spec.model: expected string, got &value.valueUnstructured{Value:1}',
    ],
    [
      { model: 'a', enabled: 'yes' },
      '.spec.enabled: expected boolean, got &{yes}',
    ],
    [
      { model: 'a', items: [{ name: 'x' }, { name: 'x' }] },
      '.spec.items: duplicate entries for key [name="x"]',
    ],
    [
      { model: 'a', items: [{}] },
      '.spec.items: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    ],
    [{ model: 'a', extra: { anything: { goes: [1] } } }, undefined],
    [{ model: 'a', cpu: { a: 1 } }, undefined],
  ])('%j -> %s', (spec, message) => {
    const errs = typedErrors(obj(spec as JsonObject), SCHEMA);
    expect(errs[0]).toBe(message);
  });

  it('joins several errors like ValidationErrors.Error()', () => {
    const errs = typedErrors(obj({ model: 'a', x: 1, y: 2 }), SCHEMA);
    expect(joinTypedErrors(errs)).toBe(
      'errors:\n  .spec.x: field not declared in schema\n  .spec.y: field not declared in schema',
    );
  });
});

describe('OpenAPI validation', () => {
  it.each([
    [{}, 'spec.model: Required value'],
    [
      { model: 'A' },
      `spec.model: Invalid value: "A": spec.model in body should match '^[a-z]+$'`,
    ],
    [
      { model: 'a', replicas: 'x' },
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ],
    [
      { model: 'a', replicas: 11 },
      'spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10',
    ],
    [
      { model: 'a', mode: 'c' },
      'spec.mode: Unsupported value: "c": supported values: "a", "b"',
    ],
    [
      { model: 'a', name: 'long' },
      'spec.name: Too long: may not be more than 3 bytes',
    ],
    [
      { model: 'a', when: 'yesterday' },
      'spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"',
    ],
    [
      { model: 'a', items: [{ name: 'x' }, { name: 'x' }] },
      'spec.items[1]: Duplicate value: map[string]interface {}{"name":"x"}',
    ],
    [{ model: 'a', cpu: '1', note: null }, undefined],
  ])('%j -> %s', (spec, message) => {
    const errs = validateAgainstSchema(obj(spec as JsonObject), SCHEMA);
    expect(errs.map(fieldErrorString)[0]).toBe(message);
  });
});

describe('request normalisation', () => {
  it('prunes unknown fields, drops non-nullable nulls and applies defaults', () => {
    const o = obj({
      model: 'a',
      unknown: 1,
      mode: null,
      note: null,
      extra: { keep: true },
    } as unknown as JsonObject);
    const unknown = normalizeObject(o, SCHEMA, {
      prune: true,
      dropNulls: true,
      defaults: true,
    });
    expect(unknown).toEqual(['spec.unknown']);
    expect(o.spec).toEqual({
      model: 'a',
      note: null,
      extra: { keep: true },
      protocol: 'TCP',
    });
  });
});
