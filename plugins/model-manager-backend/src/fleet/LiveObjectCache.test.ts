import type { KubernetesObject } from '@kubernetes/client-node';
import type { ClusterRegistry, ServerSideApplier } from '../kubernetes';
import { LiveObjectCache } from './LiveObjectCache';

const LLMISVC = {
  apiVersion: 'serving.kserve.io/v1alpha1',
  kind: 'LLMInferenceService',
};
const JOB = { apiVersion: 'batch/v1', kind: 'Job' };
const live = (name: string, resourceVersion: string): KubernetesObject => ({
  ...LLMISVC,
  metadata: { name, namespace: 'models', resourceVersion },
});

describe('LiveObjectCache.lastSeen', () => {
  let now = 0;
  let items: KubernetesObject[] = [];
  let fail = false;
  const lists: string[] = [];
  const applier = {
    list: async (cluster: string, type: { kind: string }) => {
      lists.push(`${cluster}/${type.kind}`);
      if (fail) throw new Error('connection refused');
      return type.kind === 'Job' ? undefined : items;
    },
  } as unknown as ServerSideApplier;
  const clusters = {
    list: () => [{ name: 'east' }],
  } as unknown as ClusterRegistry;
  const ref = (name: string) => ({ ...LLMISVC, name, namespace: 'models' });

  it('answers from the last successful read of the cluster, never reading', async () => {
    const cache = LiveObjectCache.create({
      applier,
      clusters,
      ttlMs: 5000,
      now: () => now,
    });
    expect(cache.lastSeen('east', ref('a'), 60_000)).toBeUndefined();
    items = [live('a', '7')];
    await cache.read('east', [LLMISVC, JOB]);
    expect(lists).toEqual(['east/LLMInferenceService', 'east/Job']);
    expect(
      cache.lastSeen('east', ref('a'), 60_000)?.metadata?.resourceVersion,
    ).toBe('7');
    // Listed, and not there: absent.
    expect(cache.lastSeen('east', ref('b'), 60_000)).toBeNull();
    // A kind the cluster does not serve, or another cluster: not known.
    expect(
      cache.lastSeen(
        'east',
        { ...JOB, name: 'a', namespace: 'models' },
        60_000,
      ),
    ).toBeUndefined();
    expect(cache.lastSeen('west', ref('a'), 60_000)).toBeUndefined();

    // Kept when the cache entry is dropped after a deploy; forgotten once older than maxAge.
    cache.invalidate('east');
    expect(
      cache.lastSeen('east', ref('a'), 60_000)?.metadata?.resourceVersion,
    ).toBe('7');
    now = 60_001;
    expect(cache.lastSeen('east', ref('a'), 60_000)).toBeUndefined();
    expect(lists).toHaveLength(2);
  });

  it('a failed read leaves the previous one standing; a newer read replaces it', async () => {
    now = 0;
    const cache = LiveObjectCache.create({
      applier,
      clusters,
      ttlMs: 0,
      now: () => now,
    });
    items = [live('a', '7')];
    await cache.read('east', [LLMISVC]);
    fail = true;
    now = 10;
    expect((await cache.read('east', [LLMISVC])).error).toBe(
      'connection refused',
    );
    expect(
      cache.lastSeen('east', ref('a'), 60_000)?.metadata?.resourceVersion,
    ).toBe('7');
    fail = false;
    items = [live('a', '9')];
    now = 20;
    await cache.read('east', [LLMISVC]);
    expect(
      cache.lastSeen('east', ref('a'), 60_000)?.metadata?.resourceVersion,
    ).toBe('9');
  });
});

describe('LiveObjectCache: a kind read for a verdict only', () => {
  const ROUTE = {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
  };
  const clusters = {
    list: () => [{ name: 'east' }],
  } as unknown as ClusterRegistry;

  it('forbidden or not served: the cluster is read without it, never unreadable for it', async () => {
    let routeAnswer: 'forbidden' | 'unserved' = 'forbidden';
    const applier = {
      list: async (_cluster: string, type: { kind: string }) => {
        if (type.kind !== 'HTTPRoute') return [live('a', '7')];
        if (routeAnswer === 'unserved') return undefined;
        throw new Error(
          'httproutes.gateway.networking.k8s.io is forbidden: User "portal" cannot list resource "httproutes"',
        );
      },
    } as unknown as ServerSideApplier;
    const cache = LiveObjectCache.create({
      applier,
      clusters,
      ttlMs: 0,
      now: () => 0,
    });
    const read = await cache.read('east', [
      LLMISVC,
      { ...ROUTE, verdictOnly: true },
    ]);
    expect(read.error).toBeUndefined();
    expect(read.objects.map(o => o.metadata?.name)).toEqual(['a']);
    expect(read.unservedKinds).toEqual([]);
    routeAnswer = 'unserved';
    expect(
      (await cache.read('east', [LLMISVC, { ...ROUTE, verdictOnly: true }]))
        .unservedKinds,
    ).toEqual([]);
    // One of the model's own kinds forbidden is the cluster unreadable, as before.
    routeAnswer = 'forbidden';
    expect((await cache.read('east', [LLMISVC, ROUTE])).error).toMatch(
      /forbidden/,
    );
  });
});
