import {
  FLEET_STATES,
  type FleetTarget,
} from '@model-manager/plugin-model-manager-common';
import { compareVersions } from '../fleet';

/** The filters of the Deployments page, each a query parameter of its URL. */
export const FILTER_KEYS = [
  'model',
  'cluster',
  'namespace',
  'runtime',
  'version',
  'state',
] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
export type FleetFilters = Partial<Record<FilterKey, string>>;

/** The value a filter compares: `version` is the live version, as in `GET /fleet?version=`. */
const valueOf = (t: FleetTarget, key: FilterKey): string | undefined =>
  key === 'version' ? t.liveVersion : t[key];

/** The filters set in a URL query; unknown parameters are ignored. */
export function filtersFromSearch(params: URLSearchParams): FleetFilters {
  const filters: FleetFilters = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value) filters[key] = value;
  }
  return filters;
}

/** The targets that match every filter set. */
export function applyFilters(
  items: FleetTarget[],
  filters: FleetFilters,
): FleetTarget[] {
  return items.filter(t =>
    FILTER_KEYS.every(key => !filters[key] || valueOf(t, key) === filters[key]),
  );
}

/**
 * The choices of each filter: the values found in the fleet (every state for `state`), plus the
 * value in the URL even when no target has it, so a shared link shows what it filters on.
 */
export function filterOptions(
  items: FleetTarget[],
  filters: FleetFilters,
): Record<FilterKey, string[]> {
  const options = {} as Record<FilterKey, string[]>;
  for (const key of FILTER_KEYS) {
    const values = new Set<string>(key === 'state' ? FLEET_STATES : []);
    for (const t of items) {
      const v = valueOf(t, key);
      if (v) values.add(v);
    }
    if (filters[key]) values.add(filters[key]!);
    options[key] =
      key === 'state' ? [...values] : [...values].sort(compareVersions);
  }
  return options;
}
