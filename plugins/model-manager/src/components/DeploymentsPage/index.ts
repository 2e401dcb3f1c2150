export { DeploymentsPage } from './DeploymentsPage';
export {
  applyFilters,
  filterOptions,
  filtersFromSearch,
  FILTER_KEYS,
  type FleetFilters,
} from './fleetFilters';
