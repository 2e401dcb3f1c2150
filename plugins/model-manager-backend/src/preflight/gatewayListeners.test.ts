/** Gateway API's allowedRoutes: which namespaces a Gateway's listeners admit routes from. */
import { admitsRoutesFrom, labelSelectorMatches } from './gatewayListeners';

const gateway = (...listeners: Array<Record<string, any>>) => ({
  metadata: { name: 'gw', namespace: 'gw-ns' },
  spec: { listeners },
});
const listener = (name: string, namespaces?: Record<string, any>) => ({
  name,
  protocol: 'HTTP',
  port: 80,
  ...(namespaces ? { allowedRoutes: { namespaces } } : {}),
});

describe('admitsRoutesFrom', () => {
  it.each([
    {
      rule: 'no allowedRoutes: Same, the default: its own namespace only',
      gw: gateway(listener('http')),
      ns: 'models',
      admitted: false,
      says: 'listener http admits routes from its own namespace gw-ns only (allowedRoutes.namespaces.from: Same, the default)',
    },
    {
      rule: 'Same, from its own namespace: admitted',
      gw: gateway(listener('http', { from: 'Same' })),
      ns: 'gw-ns',
      admitted: true,
    },
    {
      rule: 'All: admitted',
      gw: gateway(listener('a'), listener('b', { from: 'All' })),
      ns: 'models',
      admitted: true,
    },
    {
      rule: "Selector on the API server's kubernetes.io/metadata.name label: admitted",
      gw: gateway(
        listener('http', {
          from: 'Selector',
          selector: {
            matchExpressions: [
              {
                key: 'kubernetes.io/metadata.name',
                operator: 'In',
                values: ['models', 'team-a'],
              },
            ],
          },
        }),
      ),
      ns: 'models',
      admitted: true,
    },
    {
      rule: 'Selector the namespace labels do not match: refused, showing the selector',
      gw: gateway(
        listener('http', {
          from: 'Selector',
          selector: { matchLabels: { gateway: 'shared' } },
        }),
      ),
      ns: 'models',
      admitted: false,
      says: `listener http admits routes from the namespaces its selector matches ({"matchLabels":{"gateway":"shared"}}), and namespace models's labels do not`,
    },
  ])('$rule', ({ gw, ns, admitted, says }) => {
    const a = admitsRoutesFrom(gw, ns, {})!;
    expect(a.admitted).toBe(admitted);
    if (says && !a.admitted) expect(a.listeners).toContain(says);
  });

  it("reads the namespace's own labels", () => {
    const gw = gateway(
      listener('http', {
        from: 'Selector',
        selector: { matchLabels: { gateway: 'shared' } },
      }),
    );
    expect(admitsRoutesFrom(gw, 'models', { gateway: 'shared' })).toEqual({
      admitted: true,
      listener: 'http',
    });
  });

  it('a Gateway without listeners to read: no verdict', () => {
    expect(admitsRoutesFrom({ metadata: {} }, 'models', {})).toBeUndefined();
  });
});

describe('labelSelectorMatches (metav1.LabelSelector)', () => {
  const labels = { team: 'a', tier: 'gpu' };
  it.each([
    [{}, true],
    [{ matchLabels: { team: 'a' } }, true],
    [{ matchLabels: { team: 'b' } }, false],
    [
      { matchExpressions: [{ key: 'team', operator: 'In', values: ['a'] }] },
      true,
    ],
    [
      { matchExpressions: [{ key: 'team', operator: 'NotIn', values: ['a'] }] },
      false,
    ],
    [
      { matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['x'] }] },
      true,
    ],
    [{ matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, true],
    [{ matchExpressions: [{ key: 'zone', operator: 'Exists' }] }, false],
    [{ matchExpressions: [{ key: 'zone', operator: 'DoesNotExist' }] }, true],
    [{ matchExpressions: [{ key: 'team', operator: 'DoesNotExist' }] }, false],
    [
      { matchExpressions: [{ key: 'team', operator: 'Gt', values: ['1'] }] },
      false,
    ],
    [
      {
        matchLabels: { team: 'a' },
        matchExpressions: [{ key: 'tier', operator: 'In', values: ['cpu'] }],
      },
      false,
    ],
  ])('%j: %s', (selector, matches) => {
    expect(labelSelectorMatches(selector, labels)).toBe(matches);
  });
});
