import { useEffect, useState } from 'react';
import type { ModelManagerApi } from '../api';

/**
 * A number that goes up each time the backend pushes a fleet change (`watchFleet`): put it in the
 * dependencies of what reads the fleet, and the page follows the clusters without reloading.
 */
export function useFleetChanges(api: ModelManagerApi): number {
  const [changes, setChanges] = useState(0);
  useEffect(() => api.watchFleet?.(() => setChanges(n => n + 1)), [api]);
  return changes;
}
