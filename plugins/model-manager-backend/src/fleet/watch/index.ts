export { FleetWatches } from './FleetWatches';
export type { FleetWatchesOptions, WatchStatus } from './FleetWatches';
export { KindWatch } from './KindWatch';
export type { KindSource, KindWatchState } from './KindWatch';
export { DiagnosisWatches, DIAGNOSIS_WATCHES } from './DiagnosisWatches';
export { WatchedDiagnosis } from './WatchedDiagnosis';
