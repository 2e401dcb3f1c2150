export { syncState, overridesText } from './syncState';
export type { Rendering, SyncInput, SyncResult } from './syncState';
export { holdOf } from './holdOf';
export { readServer } from './readServer';
export { makeRenderer } from './makeRenderer';
export { diffRevision } from './diffRevision';
export { withSync } from './withSync';
export { revisionDiff } from './revisionDiff';
