import {
  compareTargets,
  type FleetQuery,
  type FleetResponse,
} from '@model-manager/plugin-model-manager-common';
import { useEffect, useState } from 'react';
import type { ModelManagerApi } from '../api';

/** What {@link useLiveFleet} gives: the fleet once read, and the error of the last read. */
export type LiveFleet = {
  value?: FleetResponse;
  loading: boolean;
  error?: Error;
};

/** What a page reads of the fleet: every target, or those of a runtime, a namespace ... */
export type LiveFleetQuery = Omit<FleetQuery, 'model' | 'cluster'>;

/**
 * The fleet (`GET /fleet`, with `query`'s filters), kept current by the backend's pushes (`watchFleet`). A push
 * names the clusters whose objects changed, and only those are read again (`GET
 * /fleet?cluster=`): their targets and errors take the place of the ones shown, the rest stay.
 * At 10,000 targets over 10 clusters the whole answer is 13 MB of JSON and one cluster's a
 * tenth of it (docs/performance.md). When more than half of the clusters changed at once, the
 * whole fleet is read again. Pushes that come during a read are read together after it, so
 * answers never arrive out of order.
 */
export function useLiveFleet(
  api: ModelManagerApi,
  query: LiveFleetQuery = {},
): LiveFleet {
  const [state, setState] = useState<LiveFleet>({ loading: true });
  // The filters by value: a page passes a new object on each render.
  const key = JSON.stringify(query);
  useEffect(() => {
    const filters = JSON.parse(key) as LiveFleetQuery;
    let stopped = false;
    let shown: FleetResponse | undefined;
    /** Clusters pushed and not read yet. */
    let pending = new Set<string>();
    /** Read the whole fleet next (the first read, or a failed one). */
    let whole = true;
    let reading = false;

    const read = async () => {
      if (reading || stopped) return;
      reading = true;
      try {
        while (!stopped && (whole || pending.size > 0)) {
          const clusters = pending;
          const all =
            whole || !shown || clusters.size * 2 > clustersOf(shown).size;
          whole = false;
          pending = new Set();
          try {
            const next = all
              ? await api.fleet(filters)
              : merged(
                  shown!,
                  clusters,
                  await Promise.all(
                    [...clusters].map(cluster =>
                      api.fleet({ ...filters, cluster }),
                    ),
                  ),
                );
            if (stopped) return;
            shown = next;
            setState({ value: next, loading: false });
          } catch (e) {
            if (stopped) return;
            // Read these again with the next push, and say why the page may be behind.
            for (const c of clusters) pending.add(c);
            whole = all;
            setState({ value: shown, loading: false, error: e as Error });
            return;
          }
        }
      } finally {
        reading = false;
      }
    };

    const stopWatching = api.watchFleet?.(clusters => {
      clusters.forEach(c => pending.add(c));
      void read();
    });
    void read();
    return () => {
      stopped = true;
      stopWatching?.();
    };
  }, [api, key]);
  return state;
}

/** The clusters a fleet answer names, with targets or errors. */
function clustersOf(fleet: FleetResponse): Set<string> {
  return new Set([
    ...fleet.items.map(t => t.cluster),
    ...fleet.errors.map(e => e.cluster),
  ]);
}

/**
 * `shown` with the targets and errors of `clusters` replaced by those of their new answers, in
 * the fleet's order. It is as current as the reads just made: a cluster not pushed has not
 * changed since it was read (what the push stream promises), so `readAt` is theirs.
 */
export function merged(
  shown: FleetResponse,
  clusters: Set<string>,
  answers: FleetResponse[],
): FleetResponse {
  const kept = (x: { cluster: string }) => !clusters.has(x.cluster);
  return {
    items: [...shown.items.filter(kept), ...answers.flatMap(a => a.items)].sort(
      compareTargets,
    ),
    errors: [...shown.errors.filter(kept), ...answers.flatMap(a => a.errors)],
    readAt: answers.reduce(
      (oldest, a) => (a.readAt < oldest ? a.readAt : oldest),
      answers[0]?.readAt ?? shown.readAt,
    ),
  };
}
