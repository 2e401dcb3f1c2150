export { summarizeKServeStatus } from './summarizeKServeStatus';
export type { ConditionSummary, KServeStatusSummary } from './summarizeKServeStatus';
