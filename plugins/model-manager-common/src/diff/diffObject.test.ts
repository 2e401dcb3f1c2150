import { diffObject } from './diffObject';

const rules: Array<{
  rule: string;
  rendered: unknown;
  live: unknown;
  changes: unknown[];
}> = [
  {
    rule: 'fields the cluster added (defaults, status) are not differences',
    rendered: { spec: { a: 1 } },
    live: { spec: { a: 1, b: 2 }, status: { ready: true } },
    changes: [],
  },
  {
    rule: 'a changed field is one change with its path',
    rendered: { spec: { a: 1 } },
    live: { spec: { a: 2 } },
    changes: [{ path: '.spec.a', rendered: 1, live: 2 }],
  },
  {
    rule: 'named items are matched by name, and an extra live item is a change',
    rendered: { env: [{ name: 'A', value: '1' }] },
    live: {
      env: [
        { name: 'B', value: '2' },
        { name: 'A', value: '1' },
      ],
    },
    changes: [
      {
        path: '.env[name=B]',
        rendered: undefined,
        live: { name: 'B', value: '2' },
      },
    ],
  },
  {
    rule: 'unnamed items of lists of the same length are compared item by item: defaults inside an item are not differences',
    rendered: { rules: [{ backendRefs: [{ name: 'm' }] }] },
    live: {
      rules: [
        {
          backendRefs: [{ name: 'm', weight: 1, priority: 0 }],
          modelsOwnedBy: 'Envoy AI Gateway',
        },
      ],
    },
    changes: [],
  },
  {
    rule: 'a changed field inside an unnamed item is a change at its index',
    rendered: { headers: [{ type: 'Exact', value: 'a' }] },
    live: { headers: [{ type: 'Exact', value: 'b' }] },
    changes: [{ path: '.headers[0].value', rendered: 'a', live: 'b' }],
  },
  {
    rule: 'lists of different lengths are compared whole',
    rendered: { modes: [{ m: 1 }] },
    live: { modes: [{ m: 1 }, { m: 2 }] },
    changes: [
      { path: '.modes', rendered: [{ m: 1 }], live: [{ m: 1 }, { m: 2 }] },
    ],
  },
  {
    rule: 'lists of scalars are compared whole',
    rendered: { args: ['--a', '--b'] },
    live: { args: ['--b', '--a'] },
    changes: [
      { path: '.args', rendered: ['--a', '--b'], live: ['--b', '--a'] },
    ],
  },
  {
    rule: 'a number rendered as text equals the live number (quantities)',
    rendered: { cpu: '8' },
    live: { cpu: 8 },
    changes: [],
  },
];

describe('diffObject', () => {
  it.each(rules)('$rule', ({ rendered, live, changes }) => {
    expect(diffObject(rendered, live)).toEqual(changes);
  });
});
