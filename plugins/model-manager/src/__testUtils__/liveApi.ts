import type { FleetResponse } from '@model-manager/plugin-model-manager-common';
import { act } from '@testing-library/react';
import type { ModelManagerApi } from '../api';
import { fakeApi } from './fakeApi';
import { filterFleet } from './fleet';

/**
 * The fake API (`fakeApi(overrides)`) with the backend's fleet pushes: `push(clusters)` tells every
 * subscriber of `watchFleet` that those clusters changed, as the backend's event stream does.
 */
export function liveApi(overrides: Partial<ModelManagerApi> = {}) {
  const subscribers = new Set<(clusters: string[]) => void>();
  const api = fakeApi({
    ...overrides,
    watchFleet: onChange => {
      subscribers.add(onChange);
      return () => {
        subscribers.delete(onChange);
      };
    },
  });
  return {
    api,
    push: (clusters: string[]) =>
      act(() => [...subscribers].forEach(onChange => onChange(clusters))),
  };
}

/**
 * `liveApi` whose `fleet()` (a jest mock) answers as the backend does (`runtime` and `cluster`
 * filter) over the fleet last given: `initial`, then what the test passes to `setFleet`.
 */
export function liveFleetApi(initial: FleetResponse) {
  let answer = initial;
  return {
    ...liveApi({ fleet: jest.fn(async query => filterFleet(answer, query)) }),
    setFleet: (next: FleetResponse) => {
      answer = next;
    },
  };
}
