export { WhatRunsCard } from './WhatRunsCard';
export { TargetSyncView, appliedRevisionText } from './TargetSyncView';
export { SyncDifferences } from './SyncDifferences';
export { REASON_LABELS, reasonsOf } from './reasonWords';
