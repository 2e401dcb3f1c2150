import { JOB_NAME_LABEL } from '../diagnosis/podsToRead';
import { summarizeJob, type JobProgress } from '../status/summarizeJob';

/**
 * How an object that reports a model's preparation (the weights download) is read: the kind it
 * must be, the label its controller puts on its pods, and how the object and those pods become
 * pending / running / failed / complete. A profile names one by key on one of its objects
 * (`progress: job`); a new way of reading is registered here, the way Backstage's kubernetes
 * backend keys its auth strategies, and no caller tests a kind.
 */
export interface ProgressReader {
  apiVersion: string;
  kind: string;
  /** The label the object's controller puts on the pods it runs, valued with the object's name. */
  podLabel: string;
  /** The object (as live) and its pods, in the words a person needs. */
  summarize(
    object: Record<string, any>,
    pods: Record<string, any>[],
  ): JobProgress;
}

/**
 * The readers a profile may name. `job`: a batch/v1 Job, read by its conditions (Complete,
 * Failed / FailureTarget, Suspended), its `status.active` / `ready` / `failed` counts and its newest
 * pod (`summarizeJob`); its pods carry `batch.kubernetes.io/job-name` (set by the Job controller
 * since Kubernetes 1.27: https://kubernetes.io/docs/reference/labels-annotations-taints/#batchkubernetesiojob-name).
 */
export const PROGRESS_READERS = {
  job: {
    apiVersion: 'batch/v1',
    kind: 'Job',
    podLabel: JOB_NAME_LABEL,
    summarize: summarizeJob,
  },
} as const satisfies Record<string, ProgressReader>;

export type ProgressReaderName = keyof typeof PROGRESS_READERS;

/** The names of {@link PROGRESS_READERS}, for the profile schema. */
export const PROGRESS_READER_NAMES = Object.keys(PROGRESS_READERS) as [
  ProgressReaderName,
  ...ProgressReaderName[],
];
