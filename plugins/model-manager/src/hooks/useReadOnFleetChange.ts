import { useEffect, useState } from 'react';
import type { ModelManagerApi } from '../api';
import { ReadRunner } from './ReadRunner';

/**
 * `read()`'s answer, read again when the backend pushes a fleet change (`watchFleet`), one read
 * at a time: pushes that come during a read make one more read after it, not one each (a plan of
 * 10,000 targets takes seconds to build). The answer shown stays until the next one; `error` is
 * the last read's. Read again when `key` changes.
 */
export function useReadOnFleetChange<T>(
  api: ModelManagerApi,
  read: () => Promise<T>,
  key: string,
): { value?: T; error?: Error } {
  const [state, setState] = useState<{ value?: T; error?: Error }>({});
  useEffect(() => {
    const runner = new ReadRunner(async () => {
      try {
        const value = await read();
        if (!runner.stopped) setState({ value });
      } catch (e) {
        if (!runner.stopped)
          setState(s => ({ value: s.value, error: e as Error }));
      }
      return 'done';
    });
    const stopWatching = api.watchFleet?.(() => runner.request());
    runner.request();
    return () => {
      runner.stop();
      stopWatching?.();
    };
    // `read` is the caller's closure: `key` says when what it reads changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, key]);
  return state;
}
