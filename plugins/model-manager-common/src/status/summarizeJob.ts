/** Where a batch/v1 Job (the OpenVINO weights download) is, in the words a person needs. */
export type JobPhase = 'pending' | 'running' | 'failed' | 'complete';

export interface JobProgress {
  name: string;
  namespace?: string;
  phase: JobPhase;
  /**
   * Why, as Kubernetes says it: the pod's reason where there is one (`Unschedulable`,
   * `ImagePullBackOff`, `CrashLoopBackOff`, `OOMKilled`, `Error`), else the Job's
   * (`BackoffLimitExceeded`, `DeadlineExceeded`, `Suspended`).
   */
  reason?: string;
  /** One sentence for the UI and the deploy log. */
  message: string;
  /** Pods that failed so far (`status.failed`); the Job retries up to its backoffLimit. */
  failedPods: number;
  startTime?: string;
  completionTime?: string;
}

type Obj = Record<string, any>;

/**
 * A Kubernetes time as RFC 3339 (`2026-12-01T10:20:00Z`). @kubernetes/client-node's typed reads of
 * built-in kinds (V1Job, V1Pod) turn `startTime`, `completionTime` and `creationTimestamp` into
 * `Date`s; the API server sends strings.
 */
function time(value: unknown): string | undefined {
  if (value instanceof Date)
    return Number.isNaN(value.getTime())
      ? undefined
      : value.toISOString().replace(/\.000Z$/, 'Z');
  return typeof value === 'string' ? value : undefined;
}

const condition = (object: Obj, type: string): Obj | undefined =>
  (Array.isArray(object?.status?.conditions)
    ? object.status.conditions
    : []
  ).find((c: Obj) => c?.type === type && c?.status === 'True');

/** The reason a pod gives for not running (or for having stopped), most telling first. */
function podReason(
  pod: Obj,
): { reason: string; message?: string; phase: string } | undefined {
  const phase = String(pod?.status?.phase ?? 'Pending');
  const statuses: Obj[] = [
    ...(pod?.status?.initContainerStatuses ?? []),
    ...(pod?.status?.containerStatuses ?? []),
  ];
  for (const s of statuses) {
    const waiting = s?.state?.waiting;
    if (
      waiting?.reason &&
      waiting.reason !== 'ContainerCreating' &&
      waiting.reason !== 'PodInitializing'
    ) {
      const last = s?.lastState?.terminated;
      const lastWords = last
        ? `last attempt: ${last.reason ?? 'terminated'}, exit code ${
            last.exitCode
          }`
        : undefined;
      return {
        reason: waiting.reason,
        message:
          [waiting.message, lastWords].filter(Boolean).join('; ') || undefined,
        phase,
      };
    }
    const terminated = s?.state?.terminated;
    if (terminated && terminated.exitCode !== 0) {
      return {
        reason: terminated.reason ?? 'Error',
        message: `exit code ${terminated.exitCode}${
          terminated.message ? `: ${terminated.message}` : ''
        }`,
        phase,
      };
    }
  }
  const unscheduled = (pod?.status?.conditions ?? []).find(
    (c: Obj) => c?.type === 'PodScheduled' && c?.status === 'False',
  );
  if (unscheduled)
    return {
      reason: unscheduled.reason ?? 'Unschedulable',
      message: unscheduled.message,
      phase,
    };
  if (phase === 'Failed')
    return {
      reason: pod?.status?.reason ?? 'Failed',
      message: pod?.status?.message,
      phase,
    };
  return undefined;
}

/** The newest pod (by creation time), which says what the Job is doing now. */
function newest(pods: Obj[]): Obj | undefined {
  return [...pods].sort((a, b) =>
    (time(b?.metadata?.creationTimestamp) ?? '').localeCompare(
      time(a?.metadata?.creationTimestamp) ?? '',
    ),
  )[0];
}

const words = (reason: string | undefined, message: string | undefined) =>
  reason
    ? ` (${reason}${message ? `: ${message}` : ''})`
    : message
    ? ` (${message})`
    : '';

/**
 * Summarizes a batch/v1 Job and, optionally, its pods (label `batch.kubernetes.io/job-name`) into
 * pending / running / failed / complete with the reason a person can act on. Pure: the caller reads
 * the objects. Rules, first match wins:
 * - condition Complete=True: complete;
 * - condition Failed=True (or FailureTarget=True): failed, with the newest pod's reason when it has
 *   one (OOMKilled, ImagePullBackOff, ...), else the Job's (BackoffLimitExceeded, ...);
 * - condition Suspended=True: pending (Suspended);
 * - an active pod that is Running (without pods: `status.ready` > 0): running (with
 *   CrashLoopBackOff and the last exit code when the download keeps failing inside the pod);
 * - no pod and nothing in the Job's status (no start time, none active or failed): pending, saying
 *   the Job controller has not started it, and where to look;
 * - otherwise pending, with the newest pod's reason (Unschedulable — e.g. an unbound weights claim —,
 *   ImagePullBackOff, ...) when there is one.
 */
export function summarizeJob(job: Obj, pods: Obj[] = []): JobProgress {
  const status: Obj = job?.status ?? {};
  const base = {
    name: String(job?.metadata?.name ?? ''),
    namespace: job?.metadata?.namespace,
    failedPods: Number(status.failed ?? 0),
    startTime: time(status.startTime),
    completionTime: time(status.completionTime),
  };
  const pod = newest(pods);
  const why = pod ? podReason(pod) : undefined;

  if (condition(job, 'Complete')) {
    return {
      ...base,
      phase: 'complete',
      message: `Download complete${
        base.completionTime ? ` at ${base.completionTime}` : ''
      }.`,
    };
  }
  const failed = condition(job, 'Failed') ?? condition(job, 'FailureTarget');
  if (failed) {
    const reason = why?.reason ?? failed.reason;
    const message = why ? why.message : failed.message;
    return {
      ...base,
      phase: 'failed',
      reason,
      message: `Download failed${words(reason, message)}${
        why && failed.reason ? `; the Job gave up: ${failed.reason}` : ''
      }. Read the logs of the Job's pod, fix the cause, then deploy again.`,
    };
  }
  const suspended = condition(job, 'Suspended');
  if (suspended) {
    return {
      ...base,
      phase: 'pending',
      reason: 'Suspended',
      message:
        'The download Job is suspended; nothing runs until it is resumed.',
    };
  }
  const retries =
    base.failedPods > 0 ? ` after ${base.failedPods} failed attempt(s)` : '';
  // Without its pods, the Job's own count of ready pods says whether one runs.
  const podRuns = pod
    ? pod.status?.phase === 'Running'
    : Number(status.ready ?? 0) > 0;
  if (Number(status.active ?? 0) > 0 && podRuns) {
    return why
      ? {
          ...base,
          phase: 'running',
          reason: why.reason,
          message: `Downloading, but the pod is not healthy${words(
            why.reason,
            why.message,
          )}${retries}.`,
        }
      : { ...base, phase: 'running', message: `Downloading${retries}.` };
  }
  // Not even started by the Job controller: no pod, nothing in its status (kube-controller-manager
  // sets status.startTime when it first syncs the Job, and creates the pod then).
  if (
    !pod &&
    !base.startTime &&
    !Number(status.active ?? 0) &&
    !base.failedPods
  )
    return {
      ...base,
      phase: 'pending',
      message: `Waiting for the download pod to start: the Job controller has not started Job ${
        base.namespace ? `${base.namespace}/` : ''
      }${
        base.name
      } yet (no pod, and no start time in its status). If it stays so, the Job's events say why (kubectl${
        base.namespace ? ` -n ${base.namespace}` : ''
      } describe job ${base.name}).`,
    };
  return {
    ...base,
    phase: 'pending',
    reason: why?.reason,
    message: `Waiting for the download pod to start${words(
      why?.reason,
      why?.message,
    )}${retries}.`,
  };
}
