export { FleetChips, DRIFT_LABELS, outdatedLabels } from './FleetChips';
export { FleetStateLabel } from './FleetStateLabel';
export {
  ObjectChangesList,
  FieldChangeLines,
  countChanges,
  formatValue,
  type ChangeLabels,
} from './ObjectChangesList';
export {
  aggregateFleet,
  compareVersions,
  describeStates,
  type ModelFleetSummary,
} from './aggregateFleet';
export { targetRevisionText } from './targetRevisionText';
export { targetRowId } from './targetRowId';
export { targetStatusColumns } from './targetColumns';
