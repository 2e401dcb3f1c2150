export { PreflightService } from './PreflightService';
export { PreflightReader, PARTIAL_METADATA_ACCEPT } from './PreflightReader';
export type { PreflightReaderOptions } from './PreflightReader';
export { runChecks } from './runChecks';
export { PreflightFailedError } from './PreflightFailedError';
export type { ClusterReads, Read, TargetFacts } from './types';
