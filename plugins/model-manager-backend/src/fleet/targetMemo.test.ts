import type { KubernetesObject } from '@kubernetes/client-node';
import type {
  Catalog,
  DeploymentRecord,
  FleetTarget,
} from '@model-manager/plugin-model-manager-common';
import { TargetMemo } from './targetMemo';

const catalog = {} as Catalog;
const object = (resourceVersion?: string, uid = 'u1'): KubernetesObject => ({
  apiVersion: 'serving.kserve.io/v1alpha1',
  kind: 'LLMInferenceService',
  metadata: { name: 'm', namespace: 'ns', uid, resourceVersion },
});
const record = (id: number) => ({ id } as DeploymentRecord);
const base = {
  readable: true,
  record: record(1),
  objects: [object('10')],
  gatewayBaseUrl: undefined as string | undefined,
};

describe('TargetMemo', () => {
  let described: number;
  const describeOnce = () => {
    described++;
    return { model: 'm', state: 'NotReady' } as FleetTarget;
  };
  beforeEach(() => {
    described = 0;
  });

  it.each([
    ['the same inputs', {}, false],
    ['a new resourceVersion', { objects: [object('11')] }, true],
    ['a recreated object (new uid)', { objects: [object('10', 'u2')] }, true],
    ['one more object', { objects: [object('10'), object('12', 'u3')] }, true],
    ['a new last record', { record: record(2) }, true],
    ['no record any more', { record: undefined }, true],
    ['another gateway URL', { gatewayBaseUrl: 'https://gw' }, true],
    ['an unreadable cluster', { readable: false }, true],
    ['objects without resourceVersion', { objects: [object(undefined)] }, true],
  ])('after %s, describes again: %s', (_, change, again) => {
    const memo = new TargetMemo();
    memo.begin(catalog);
    memo.get('k', base, describeOnce);
    memo.end();
    memo.begin(catalog);
    memo.get('k', { ...base, ...change }, describeOnce);
    memo.end();
    expect(described).toBe(again ? 2 : 1);
  });

  it('describes every target again for another catalog', () => {
    const memo = new TargetMemo();
    memo.begin(catalog);
    memo.get('k', base, describeOnce);
    memo.end();
    memo.begin({} as Catalog);
    memo.get('k', base, describeOnce);
    memo.end();
    expect(described).toBe(2);
  });

  it('forgets targets the last build did not describe', () => {
    const memo = new TargetMemo();
    memo.begin(catalog);
    memo.get('k', base, describeOnce);
    memo.end();
    memo.begin(catalog);
    memo.end();
    memo.begin(catalog);
    memo.get('k', base, describeOnce);
    memo.end();
    expect(described).toBe(2);
  });

  it('hands out copies: a change to one is not seen by the next build', () => {
    const memo = new TargetMemo();
    memo.begin(catalog);
    const first = memo.get('k', base, describeOnce);
    first.reason = 'diagnosed';
    memo.end();
    memo.begin(catalog);
    const second = memo.get('k', base, describeOnce);
    memo.end();
    expect(described).toBe(1);
    expect(second.reason).toBeUndefined();
  });
});
