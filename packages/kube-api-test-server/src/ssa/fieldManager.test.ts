import { StatusError } from '../api/errors';
import { withObjectMeta } from '../schema/objectMeta';
import { JsonObject } from '../util/json';
import {
  FieldFilter,
  applyConfig,
  resetFieldsFilter,
  trackUpdate,
} from './fieldManager';

const keyed = (keys: string[], items: JsonObject): JsonObject => ({
  type: 'array',
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': keys,
  items,
});

const SCHEMA = withObjectMeta({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        image: { type: 'string' },
        containers: keyed(['name'], {
          type: 'object',
          properties: {
            name: { type: 'string' },
            image: { type: 'string' },
            env: keyed(['name'], {
              type: 'object',
              properties: {
                name: { type: 'string' },
                value: { type: 'string' },
              },
            }),
          },
        }),
        tags: {
          type: 'array',
          'x-kubernetes-list-type': 'set',
          items: { type: 'string' },
        },
        args: { type: 'array', items: { type: 'string' } },
        config: { type: 'object', additionalProperties: { type: 'string' } },
        nested: {
          type: 'object',
          properties: {
            a: {
              type: 'object',
              properties: { b: { type: 'string' }, c: { type: 'string' } },
            },
          },
        },
      },
    },
    status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  },
});

const noFilter: FieldFilter = s => s;

function obj(spec: JsonObject, extra: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'example.com/v1',
    kind: 'Thing',
    metadata: { name: 'x', namespace: 'ns' },
    spec,
    ...extra,
  };
}

function apply(
  live: JsonObject | undefined,
  patch: JsonObject,
  manager: string,
  force = false,
): JsonObject {
  return applyConfig({
    live: live ?? { apiVersion: 'example.com/v1', kind: 'Thing' },
    patch,
    schema: SCHEMA,
    manager,
    apiVersion: 'example.com/v1',
    filter: noFilter,
    force,
    now: '2026-01-01T00:00:00Z',
  });
}

const managers = (o: JsonObject) =>
  ((o.metadata as JsonObject).managedFields as JsonObject[]).map(
    m => m.manager,
  );
const fieldsOf = (o: JsonObject, manager: string) =>
  ((o.metadata as JsonObject).managedFields as JsonObject[]).find(
    m => m.manager === manager,
  )?.fieldsV1;

function conflictOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('expected a conflict');
}

describe('server-side apply field management', () => {
  it('encodes keyed list items with k: keys and "." for owned items', () => {
    const out = apply(
      undefined,
      obj({
        containers: [
          { name: 'a', image: 'img', env: [{ name: 'E', value: '1' }] },
        ],
        tags: ['t'],
      }),
      'm',
    );
    expect(fieldsOf(out, 'm')).toEqual({
      'f:spec': {
        'f:containers': {
          'k:{"name":"a"}': {
            '.': {},
            'f:env': {
              'k:{"name":"E"}': { '.': {}, 'f:name': {}, 'f:value': {} },
            },
            'f:image': {},
            'f:name': {},
          },
        },
        'f:tags': { 'v:"t"': {} },
      },
    });
  });

  it.each([
    ['a scalar', { replicas: 1, image: 'a' }, { image: 'a' }, { image: 'a' }],
    [
      'a keyed list item',
      { containers: [{ name: 'a' }, { name: 'b' }] },
      { containers: [{ name: 'a' }] },
      { containers: [{ name: 'a' }] },
    ],
    ['a set item', { tags: ['x', 'y'] }, { tags: ['x'] }, { tags: ['x'] }],
    [
      'a map key',
      { config: { k1: 'v', k2: 'v' } },
      { config: { k1: 'v' } },
      { config: { k1: 'v' } },
    ],
    [
      'a nested struct whose fields all went away',
      { image: 'i', nested: { a: { b: 'x' } } },
      { image: 'i' },
      { image: 'i' },
    ],
  ])(
    'removes %s the applier stopped applying',
    (_name, first, second, expected) => {
      const v1 = apply(undefined, obj(first), 'm');
      const v2 = apply(v1, obj(second), 'm');
      expect(v2.spec).toEqual(expected);
    },
  );

  it('keeps a dropped field that another manager also owns', () => {
    const v1 = apply(undefined, obj({ replicas: 2, image: 'a' }), 'm');
    const v2 = apply(v1, obj({ replicas: 2 }), 'other');
    const v3 = apply(v2, obj({ image: 'a' }), 'm');
    expect(v3.spec).toEqual({ replicas: 2, image: 'a' });
    expect(managers(v3).sort()).toEqual(['m', 'other']);
  });

  it('merges keyed list items owned by different managers', () => {
    const v1 = apply(
      undefined,
      obj({ containers: [{ name: 'a', image: 'ia' }] }),
      'm',
    );
    const v2 = apply(
      v1,
      obj({ containers: [{ name: 'b', image: 'ib' }] }),
      'other',
    );
    expect((v2.spec as JsonObject).containers).toEqual([
      { name: 'a', image: 'ia' },
      { name: 'b', image: 'ib' },
    ]);
  });

  it('reports every conflicting field, grouped by manager', () => {
    const v1 = apply(undefined, obj({ replicas: 1, image: 'a' }), 'm');
    const err = conflictOf(() =>
      apply(v1, obj({ replicas: 2, image: 'b' }), 'other'),
    );
    expect(err.code).toBe(409);
    expect(err.body.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "m":\n- .spec.image\n- .spec.replicas',
    );
    expect(err.body.details?.causes?.map(c => c.field)).toEqual([
      '.spec.image',
      '.spec.replicas',
    ]);
  });

  it('names Update managers with their apiVersion in conflicts', () => {
    const created = obj({ replicas: 1 });
    (created.metadata as JsonObject).managedFields = trackUpdate({
      live: undefined,
      next: created,
      schema: SCHEMA,
      manager: 'kubectl-edit',
      apiVersion: 'example.com/v1',
      filter: noFilter,
      now: '2026-01-01T00:00:00Z',
    });
    const err = conflictOf(() => apply(created, obj({ replicas: 3 }), 'm'));
    expect(err.body.message).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl-edit" using example.com/v1: .spec.replicas',
    );
  });

  it('records "." for maps an update created, and takes fields from appliers', () => {
    const v1 = apply(undefined, obj({ replicas: 1, image: 'a' }), 'm');
    const next = obj({ replicas: 5, image: 'a', config: { k: 'v' } });
    (next.metadata as JsonObject).managedFields = trackUpdate({
      live: v1,
      next,
      schema: SCHEMA,
      manager: 'editor',
      apiVersion: 'example.com/v1',
      filter: noFilter,
      now: '2026-01-01T00:00:01Z',
    });
    expect(fieldsOf(next, 'editor')).toEqual({
      'f:spec': { 'f:config': { '.': {}, 'f:k': {} }, 'f:replicas': {} },
    });
    expect(fieldsOf(next, 'm')).toEqual({ 'f:spec': { 'f:image': {} } });
  });

  it('ignores status on the main resource and everything else on /status', () => {
    const main = resetFieldsFilter(true, undefined);
    const status = resetFieldsFilter(true, 'status');
    const v1 = applyConfig({
      live: { apiVersion: 'example.com/v1', kind: 'Thing' },
      patch: obj({ image: 'a' }, { status: { phase: 'x' } }),
      schema: SCHEMA,
      manager: 'm',
      apiVersion: 'example.com/v1',
      filter: main,
      force: false,
      now: '2026-01-01T00:00:00Z',
    });
    expect(fieldsOf(v1, 'm')).toEqual({ 'f:spec': { 'f:image': {} } });
    const v2 = applyConfig({
      live: v1,
      patch: obj({ image: 'b' }, { status: { phase: 'y' } }),
      schema: SCHEMA,
      manager: 'ctrl',
      apiVersion: 'example.com/v1',
      subresource: 'status',
      filter: status,
      force: false,
      now: '2026-01-01T00:00:00Z',
    });
    const entry = (
      (v2.metadata as JsonObject).managedFields as JsonObject[]
    ).find(m => m.manager === 'ctrl');
    expect(entry).toEqual(
      expect.objectContaining({
        subresource: 'status',
        fieldsV1: { 'f:status': { 'f:phase': {} } },
      }),
    );
  });

  it('keeps the time of a manager whose apply changed nothing', () => {
    const v1 = apply(undefined, obj({ image: 'a' }), 'm');
    const v2 = applyConfig({
      live: v1,
      patch: obj({ image: 'a' }),
      schema: SCHEMA,
      manager: 'm',
      apiVersion: 'example.com/v1',
      filter: noFilter,
      force: false,
      now: '2030-01-01T00:00:00Z',
    });
    expect(
      ((v2.metadata as JsonObject).managedFields as JsonObject[])[0].time,
    ).toBe('2026-01-01T00:00:00Z');
  });
});
