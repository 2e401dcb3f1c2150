export { summarizeKServeStatus } from './summarizeKServeStatus';
export type {
  ConditionSummary,
  KServeStatusSummary,
} from './summarizeKServeStatus';
export { summarizeJob } from './summarizeJob';
export type { JobPhase, JobProgress } from './summarizeJob';
