import type { KubernetesObject } from '@kubernetes/client-node';
import type {
  Catalog,
  DeploymentRecord,
  FleetTarget,
} from '@model-manager/plugin-model-manager-common';
import { loadCatalog } from '@model-manager/plugin-model-manager-node';
import { catalogCopy } from '../__testUtils__/editableCatalog';
import { buildFleet } from './buildFleet';
import type { ClusterRead } from './LiveObjectCache';
import { TargetMemo } from './targetMemo';

const catalog = {} as Catalog;
const object = (
  resourceVersion?: string,
  uid = 'u1',
  kind = 'LLMInferenceService',
): KubernetesObject => ({
  apiVersion: 'serving.kserve.io/v1alpha2',
  kind,
  metadata: { name: 'm', namespace: 'ns', uid, resourceVersion },
});
const record = (id: number) => ({ id } as DeploymentRecord);
const base = {
  readable: true,
  record: record(1) as DeploymentRecord | undefined,
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
  /** Two builds of one target: the second with `second` as its inputs. */
  const twice = (second: typeof base, memo = new TargetMemo()) => {
    memo.begin(catalog);
    memo.get('k', base, describeOnce);
    memo.end();
    memo.begin(catalog);
    const target = memo.get('k', second, describeOnce);
    memo.end();
    return target;
  };

  it.each<[string, boolean, Partial<typeof base>]>([
    ['the same inputs', false, {}],
    [
      'the same objects read again (new copies)',
      false,
      { objects: [object('10')] },
    ],
    [
      'a new resourceVersion (spec or status changed)',
      true,
      { objects: [object('11')] },
    ],
    ['a recreated object (new uid)', true, { objects: [object('10', 'u2')] }],
    [
      'one more object',
      true,
      { objects: [object('10'), object('12', 'u3', 'Secret')] },
    ],
    ['no object any more', true, { objects: [] }],
    [
      'another kind under the same name',
      true,
      { objects: [object('10', 'u1', 'Job')] },
    ],
    ['a new last record', true, { record: record(2) }],
    ['no record any more', true, { record: undefined }],
    ['another gateway URL', true, { gatewayBaseUrl: 'https://gw' }],
    ['an unreadable cluster', true, { readable: false }],
    ['objects without resourceVersion', true, { objects: [object(undefined)] }],
  ])('after %s, describes again: %s', (_, again, change) => {
    twice({ ...base, ...change });
    expect(described).toBe(again ? 2 : 1);
  });

  it('describes every target again for another catalog (a models.yaml reload)', () => {
    const memo = new TargetMemo();
    memo.begin(catalog);
    memo.get('k', base, describeOnce);
    memo.end();
    memo.begin({} as Catalog);
    memo.get('k', base, describeOnce);
    memo.end();
    expect(described).toBe(2);
  });

  it('describes an unreadable cluster’s targets on every build (its error may change)', () => {
    const memo = new TargetMemo();
    for (let i = 0; i < 3; i++) {
      memo.begin(catalog);
      memo.get('k', { ...base, readable: false }, describeOnce);
      memo.end();
    }
    expect(described).toBe(3);
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

  it('hands out copies: what the diagnosis sets on one build is not seen by the next', () => {
    const memo = new TargetMemo();
    memo.begin(catalog);
    const first = memo.get('k', base, describeOnce);
    first.reason = 'ImagePullBackOff';
    delete first.awaitingKServe;
    memo.end();
    memo.begin(catalog);
    const second = memo.get('k', base, describeOnce);
    memo.end();
    expect(described).toBe(1);
    expect(second).not.toBe(first);
    expect(second.reason).toBeUndefined();
  });
});

describe('buildFleet with a TargetMemo', () => {
  const MODEL = 'qwen2-5-7b-instruct';
  let real: Catalog;
  beforeAll(async () => {
    real = await loadCatalog({ modelsFile: catalogCopy() });
  });
  const isvc = (resourceVersion: string, ready?: 'True' | 'False') => ({
    apiVersion: 'serving.kserve.io/v1alpha2',
    kind: 'LLMInferenceService',
    metadata: {
      name: MODEL,
      namespace: 'models',
      uid: 'u1',
      resourceVersion,
      labels: { 'app.kubernetes.io/name': MODEL },
    },
    ...(ready
      ? {
          status: {
            url: 'http://qwen.models.example',
            conditions: [{ type: 'Ready', status: ready }],
          },
        }
      : {}),
  });
  const read = (objects: KubernetesObject[]): ClusterRead[] => [
    { cluster: 'local', objects, unservedKinds: [], readAt: new Date() },
  ];
  const build = (memo: TargetMemo | undefined, objects: KubernetesObject[]) =>
    buildFleet({ catalog: real, reads: read(objects), records: [], memo });

  it('answers as without it, build after build, and sees a status change (new resourceVersion)', () => {
    const memo = new TargetMemo();
    const steps = [isvc('1'), isvc('1'), isvc('2', 'True'), isvc('2', 'True')];
    const states = steps.map(o => {
      const withMemo = build(memo, [o]);
      expect(withMemo).toEqual(build(undefined, [o]));
      return withMemo[0].state;
    });
    expect(states).toEqual(['NotReady', 'NotReady', 'Ready', 'Ready']);
  });

  it('reuses the description while the resourceVersion stays (what it relies on)', () => {
    const memo = new TargetMemo();
    build(memo, [isvc('1')]);
    // Not something Kubernetes does (a status change gives a new resourceVersion): shows the reuse.
    expect(build(memo, [isvc('1', 'True')])[0].state).toBe('NotReady');
  });
});
