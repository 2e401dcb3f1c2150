import { useCallback, useEffect, useRef, useState } from 'react';
import type { ModelManagerApi } from '../api';
import { ReadRunner } from './ReadRunner';

/** What {@link useReadOnFleetChange} gives. */
export type ReadOnFleetChange<T> = {
  /** The last answer read; it stays while the next is read, and when a read fails. */
  value?: T;
  /** The last read's error (cleared by the next answer). */
  error?: Error;
  /** Nothing read yet, answer or error. */
  loading: boolean;
  /** Read again now (after the page itself changed something), one read at a time as well. */
  reload: () => void;
};

/**
 * `read()`'s answer, read again when the backend pushes a fleet change (`watchFleet`), one read
 * at a time: pushes that come during a read make one more read after it, not one each (a rollout
 * pushes every 100 ms, and a plan of 10,000 targets takes seconds to build). The answer shown
 * stays until the next one; `error` is the last read's. Read again when `key` changes.
 */
export function useReadOnFleetChange<T>(
  api: ModelManagerApi,
  read: () => Promise<T>,
  key: string,
): ReadOnFleetChange<T> {
  const [state, setState] = useState<{ value?: T; error?: Error }>({});
  const [loading, setLoading] = useState(true);
  const runner = useRef<ReadRunner>();
  useEffect(() => {
    setLoading(true);
    setState({});
    const current = new ReadRunner(async () => {
      try {
        const value = await read();
        if (!current.stopped) setState({ value });
      } catch (e) {
        if (!current.stopped)
          setState(s => ({ value: s.value, error: e as Error }));
      }
      if (!current.stopped) setLoading(false);
      return 'done';
    });
    runner.current = current;
    const stopWatching = api.watchFleet?.(() => current.request());
    current.request();
    return () => {
      current.stop();
      stopWatching?.();
    };
    // `read` is the caller's closure: `key` says when what it reads changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, key]);
  const reload = useCallback(() => runner.current?.request(), []);
  return { ...state, loading, reload };
}
