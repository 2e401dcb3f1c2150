export { DiagnosisReader, LOG_TAIL_LINES } from './DiagnosisReader';
export type {
  DiagnosisTarget,
  WatchedDiagnosisObjects,
} from './DiagnosisReader';
