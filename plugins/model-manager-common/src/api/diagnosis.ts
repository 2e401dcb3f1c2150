/**
 * Why a deployed model is not Ready, in words: the REST shape of a diagnosis. The schemas, with
 * what each field means, are in ./contract/answers/diagnosis.ts; the types are derived from them.
 */
import type { z } from 'zod';
import type {
  diagnosedContainerSchema,
  diagnosedEventSchema,
  diagnosedLogSchema,
  diagnosedPodSchema,
  diagnosisFindingSchema,
  diagnosisSchema,
  signatureWhereSchema,
} from './contract/answers/diagnosis';

/** Where a known signature is looked for. */
export type SignatureWhere = z.infer<typeof signatureWhereSchema>;
/** A known message matched in what Kubernetes or the engine said, with what it means and the fix. */
export type DiagnosisFinding = z.infer<typeof diagnosisFindingSchema>;
/** One container of a pod, as its status says. */
export type DiagnosedContainer = z.infer<typeof diagnosedContainerSchema>;
/** One of the model's pods (the server's, or the weights download Job's). */
export type DiagnosedPod = z.infer<typeof diagnosedPodSchema>;
/** An Event about one of the model's objects or pods. */
export type DiagnosedEvent = z.infer<typeof diagnosedEventSchema>;
/** The last lines of a container's log (or why they could not be read). */
export type DiagnosedLog = z.infer<typeof diagnosedLogSchema>;
/** Why a model is not Ready at one cluster/namespace. */
export type Diagnosis = z.infer<typeof diagnosisSchema>;
