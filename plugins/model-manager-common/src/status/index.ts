export { routeRefusals, summarizeKServeStatus } from './summarizeKServeStatus';
export {
  isServerKind,
  readPath,
  serverImageOf,
  serverKinds,
  statusReadingOf,
} from './liveServer';
export type { ObjectPath } from './liveServer';
export type {
  ConditionSummary,
  KServeStatusSummary,
} from './summarizeKServeStatus';
export { summarizeJob } from './summarizeJob';
export type { JobPhase, JobProgress } from './summarizeJob';
export { selectEndpoint } from './selectEndpoint';
export type { EndpointRule, EndpointProfile } from './selectEndpoint';
export type { EndpointSource, ModelEndpoint } from './selectEndpoint';
export { notReadyHeadline } from './notReadyHeadline';
export type { NotReadyHeadline } from './notReadyHeadline';
