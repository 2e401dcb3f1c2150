import type { KubernetesObject } from '@kubernetes/client-node';
import { KindWatch, type KindSource } from './KindWatch';

/** A source whose LIST answers and whose WATCH never gets its answer (a proxy holding it back). */
function stalledWatchSource(): KindSource & { watches: number } {
  const source = {
    watches: 0,
    path: async () => '/api/v1/pods',
    list: async () => ({
      apiVersion: 'v1',
      kind: 'PodList',
      metadata: { resourceVersion: '7' },
      items: [] as KubernetesObject[],
    }),
    watch: {
      watch: (() => {
        source.watches++;
        return new Promise(() => undefined);
      }) as any,
    },
  };
  return source;
}

describe('KindWatch', () => {
  afterEach(() => jest.useRealTimers());

  it('lets readers go on (not live: they list) when the first watch does not answer within startWaitMs', async () => {
    jest.useFakeTimers();
    const source = stalledWatchSource();
    const w = KindWatch.start({
      source,
      labelSelector: 'a=b',
      onChange: () => undefined,
      startWaitMs: 10_000,
    });
    let settled = false;
    void w.started().then(() => {
      settled = true;
    });
    await jest.advanceTimersByTimeAsync(9_000);
    expect(source.watches).toBe(1);
    expect(settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(settled).toBe(true);
    expect(w.state.phase).toBe('starting');
    w.stop();
  });
});
