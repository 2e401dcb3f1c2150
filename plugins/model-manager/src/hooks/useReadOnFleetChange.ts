import { useEffect, useState } from 'react';
import type { ModelManagerApi } from '../api';

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
): { value?: T; error?: Error } {
  const [state, setState] = useState<{ value?: T; error?: Error }>({});
  useEffect(() => {
    let stopped = false;
    let reading = false;
    let again = false;
    const run = async () => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        do {
          again = false;
          try {
            const value = await read();
            if (!stopped) setState({ value });
          } catch (e) {
            if (!stopped)
              setState(s => ({ value: s.value, error: e as Error }));
          }
        } while (again && !stopped);
      } finally {
        reading = false;
      }
    };
    const stopWatching = api.watchFleet?.(() => void run());
    void run();
    return () => {
      stopped = true;
      stopWatching?.();
    };
    // `read` is the caller's closure: `key` says when what it reads changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, key]);
  return state;
}
