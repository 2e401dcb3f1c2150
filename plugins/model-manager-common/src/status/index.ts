export { summarizeKServeStatus } from './summarizeKServeStatus';
export type { ConditionSummary, KServeStatusSummary } from './summarizeKServeStatus';
export { SERVER_IMAGE_PATHS, isServerKind, readPath, serverImageOf } from './liveServer';
export type { ObjectPath } from './liveServer';
