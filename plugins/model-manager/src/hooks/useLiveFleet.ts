import {
  compareTargets,
  type FleetQuery,
  type FleetResponse,
} from '@model-manager/plugin-model-manager-common';
import { useEffect, useState } from 'react';
import type { ModelManagerApi } from '../api';
import { ReadRunner } from './ReadRunner';

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
  const { namespace, runtime, version, state: targetState } = query;
  useEffect(() => {
    const filters: LiveFleetQuery = definedOnly({
      namespace,
      runtime,
      version,
      state: targetState,
    });
    let shown: FleetResponse | undefined;
    /** Clusters pushed and not read yet. */
    let pending = new Set<string>();
    /** Read the whole fleet next (the first read, or a failed one). */
    let whole = true;

    const runner = new ReadRunner(async () => {
      if (!whole && pending.size === 0) return 'done';
      const clusters = pending;
      const all = whole || !shown || clusters.size * 2 > clustersOf(shown).size;
      whole = false;
      pending = new Set();
      try {
        const next = all
          ? await api.fleet(filters)
          : withClustersReplaced(
              shown!,
              clusters,
              await Promise.all(
                [...clusters].map(cluster =>
                  api.fleet({ ...filters, cluster }),
                ),
              ),
            );
        if (runner.stopped) return 'done';
        shown = next;
        setState({ value: next, loading: false });
        return 'done';
      } catch (e) {
        if (runner.stopped) return 'done';
        // Read these again with the next push, and say why the page may be behind.
        for (const c of clusters) pending.add(c);
        whole = all;
        setState({ value: shown, loading: false, error: e as Error });
        return 'wait';
      }
    });

    const stopWatching = api.watchFleet?.(clusters => {
      clusters.forEach(c => pending.add(c));
      runner.request();
    });
    runner.request();
    return () => {
      runner.stop();
      stopWatching?.();
    };
  }, [api, namespace, runtime, version, targetState]);
  return state;
}

/** `query` without its unset filters. */
function definedOnly(query: LiveFleetQuery): LiveFleetQuery {
  return Object.fromEntries(
    Object.entries(query).filter(([, v]) => v !== undefined),
  ) as LiveFleetQuery;
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
function withClustersReplaced(
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
