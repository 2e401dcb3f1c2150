export { diagnose, diagnosePod } from './diagnose';
export type { DiagnosisInput } from './diagnose';
export {
  KUBERNETES_SIGNATURES,
  compileSignatures,
  signatureSchema,
  signaturesFor,
} from './signatures';
export type { CompiledSignature, Signature } from './signatures';
export {
  JOB_NAME_LABEL,
  isServerPod,
  logsToRead,
  serverPodSelector,
} from './podsToRead';
export { formatDiagnosis } from './formatDiagnosis';
