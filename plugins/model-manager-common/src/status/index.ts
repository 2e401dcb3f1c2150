export { summarizeKServeStatus } from './summarizeKServeStatus';
export {
  SERVER_IMAGE_PATHS,
  isServerKind,
  readPath,
  serverImageOf,
} from './liveServer';
export type { ObjectPath } from './liveServer';
export type {
  ConditionSummary,
  KServeStatusSummary,
} from './summarizeKServeStatus';
export { summarizeJob } from './summarizeJob';
export type { JobPhase, JobProgress } from './summarizeJob';
export { selectEndpoint, ROUTING_ENDPOINTS } from './selectEndpoint';
export type { EndpointSource, ModelEndpoint } from './selectEndpoint';
