import { summarizeJob, type JobProgress } from './summarizeJob';

const job = (status: Record<string, unknown>) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'phi-download', namespace: 'models' },
  status,
});
const cond = (type: string, reason?: string, message?: string) => ({
  type,
  status: 'True',
  reason,
  message,
});
const pod = (created: string, status: Record<string, unknown>) => ({
  metadata: { creationTimestamp: created },
  status,
});
const container = (
  state: Record<string, unknown>,
  lastState: Record<string, unknown> = {},
) => ({ name: 'ovms-pull', state, lastState });

interface Rule {
  rule: string;
  status: Record<string, unknown>;
  pods?: Array<Record<string, unknown>>;
  expected: Partial<JobProgress>;
  says?: RegExp;
}

const rules: Rule[] = [
  {
    rule: 'a Job the controller has not started yet is pending, and says so',
    status: {},
    expected: { phase: 'pending', reason: undefined, failedPods: 0 },
    says: /^Waiting for the download pod to start: the Job controller has not started Job .* yet \(no pod, and no start time in its status\)\. If it stays so, the Job's events say why \(kubectl .*describe job /,
  },
  {
    rule: 'a started Job without its pod yet is pending, waiting for the pod',
    status: { startTime: '2026-12-01T10:00:00Z', active: 1 },
    expected: { phase: 'pending', failedPods: 0 },
    says: /^Waiting for the download pod to start\.$/,
  },
  {
    rule: 'a pod that cannot be scheduled (e.g. the weights claim is not bound) is pending with the scheduler reason',
    status: { active: 1, ready: 0 },
    pods: [
      pod('2026-12-01T10:00:00Z', {
        phase: 'Pending',
        conditions: [
          {
            type: 'PodScheduled',
            status: 'False',
            reason: 'Unschedulable',
            message: 'pod has unbound immediate PersistentVolumeClaims',
          },
        ],
      }),
    ],
    expected: { phase: 'pending', reason: 'Unschedulable' },
    says: /unbound immediate PersistentVolumeClaims/,
  },
  {
    rule: 'an image that cannot be pulled is pending with ImagePullBackOff',
    status: { active: 1 },
    pods: [
      pod('2026-12-01T10:00:00Z', {
        phase: 'Pending',
        containerStatuses: [
          container({
            waiting: {
              reason: 'ImagePullBackOff',
              message: 'Back-off pulling image "openvino/model_server:nope"',
            },
          }),
        ],
      }),
    ],
    expected: { phase: 'pending', reason: 'ImagePullBackOff' },
    says: /openvino\/model_server:nope/,
  },
  {
    rule: 'a container still being created is plain pending, not a problem',
    status: { active: 1 },
    pods: [
      pod('2026-12-01T10:00:00Z', {
        phase: 'Pending',
        containerStatuses: [
          container({ waiting: { reason: 'ContainerCreating' } }),
        ],
      }),
    ],
    expected: { phase: 'pending', reason: undefined },
  },
  {
    rule: 'a running pod is running',
    status: { active: 1, ready: 1, startTime: '2026-12-01T10:00:00Z' },
    pods: [
      pod('2026-12-01T10:00:00Z', {
        phase: 'Running',
        containerStatuses: [container({ running: {} })],
      }),
    ],
    expected: {
      phase: 'running',
      reason: undefined,
      startTime: '2026-12-01T10:00:00Z',
    },
    says: /^Downloading\.$/,
  },
  {
    rule: 'without its pods, the Job counts a ready pod as running',
    status: { active: 1, ready: 1 },
    expected: { phase: 'running' },
  },
  {
    rule: 'a download that keeps failing inside its pod is running with CrashLoopBackOff and the last exit code',
    status: { active: 1, ready: 0 },
    pods: [
      pod('2026-12-01T10:00:00Z', {
        phase: 'Running',
        containerStatuses: [
          container(
            { waiting: { reason: 'CrashLoopBackOff' } },
            { terminated: { reason: 'Error', exitCode: 1 } },
          ),
        ],
      }),
    ],
    expected: { phase: 'running', reason: 'CrashLoopBackOff' },
    says: /last attempt: Error, exit code 1/,
  },
  {
    rule: 'retries are counted',
    status: { active: 1, ready: 1, failed: 2 },
    expected: { phase: 'running', failedPods: 2 },
    says: /after 2 failed attempt\(s\)/,
  },
  {
    rule: "a failed Job is failed with the newest pod's reason",
    status: {
      failed: 3,
      conditions: [
        cond(
          'Failed',
          'BackoffLimitExceeded',
          'Job has reached the specified backoff limit',
        ),
      ],
    },
    pods: [
      pod('2026-12-01T10:00:00Z', {
        phase: 'Failed',
        containerStatuses: [
          container({ terminated: { reason: 'Error', exitCode: 1 } }),
        ],
      }),
      pod('2026-12-01T10:05:00Z', {
        phase: 'Failed',
        containerStatuses: [
          container({ terminated: { reason: 'OOMKilled', exitCode: 137 } }),
        ],
      }),
    ],
    expected: { phase: 'failed', reason: 'OOMKilled', failedPods: 3 },
    says: /Download failed \(OOMKilled: exit code 137\); the Job gave up: BackoffLimitExceeded\./,
  },
  {
    rule: "a failed Job without its pods is failed with the Job's reason",
    status: {
      conditions: [
        cond(
          'Failed',
          'DeadlineExceeded',
          'Job was active longer than specified deadline',
        ),
      ],
    },
    expected: { phase: 'failed', reason: 'DeadlineExceeded' },
    says: /DeadlineExceeded: Job was active longer than specified deadline/,
  },
  {
    rule: 'a Job that is failing (FailureTarget) is already failed',
    status: { conditions: [cond('FailureTarget', 'BackoffLimitExceeded')] },
    expected: { phase: 'failed', reason: 'BackoffLimitExceeded' },
  },
  {
    rule: 'a complete Job is complete, whatever its earlier pods did',
    status: {
      succeeded: 1,
      failed: 1,
      completionTime: '2026-12-01T10:30:00Z',
      conditions: [cond('SuccessCriteriaMet'), cond('Complete')],
    },
    pods: [
      pod('2026-12-01T10:00:00Z', {
        phase: 'Failed',
        containerStatuses: [
          container({ terminated: { reason: 'Error', exitCode: 1 } }),
        ],
      }),
    ],
    expected: {
      phase: 'complete',
      reason: undefined,
      completionTime: '2026-12-01T10:30:00Z',
    },
    says: /Download complete at 2026-12-01T10:30:00Z\./,
  },
  {
    rule: 'a suspended Job is pending',
    status: { conditions: [cond('Suspended', 'JobSuspended')] },
    expected: { phase: 'pending', reason: 'Suspended' },
  },
  {
    rule: 'a condition that is not True does not count',
    status: {
      active: 1,
      ready: 1,
      conditions: [{ type: 'Failed', status: 'False' }],
    },
    expected: { phase: 'running' },
  },
  {
    rule: 'times read as Dates (client-node turns them into Date for V1Job / V1Pod) are RFC 3339, and the newest pod is found by them',
    status: {
      succeeded: 1,
      startTime: new Date('2026-12-01T10:01:00Z'),
      completionTime: new Date('2026-12-01T10:20:00Z'),
      conditions: [cond('Complete')],
    },
    expected: {
      phase: 'complete',
      startTime: '2026-12-01T10:01:00Z',
      completionTime: '2026-12-01T10:20:00Z',
    },
    says: /^Download complete at 2026-12-01T10:20:00Z\.$/,
  },
  {
    rule: 'the newest pod by a Date creationTimestamp says why the Job is pending',
    status: { active: 1 },
    pods: [
      {
        metadata: { creationTimestamp: new Date('2026-12-02T10:00:00Z') },
        status: {
          phase: 'Pending',
          containerStatuses: [
            container({ waiting: { reason: 'ImagePullBackOff' } }),
          ],
        },
      },
      {
        metadata: { creationTimestamp: new Date('2026-12-03T10:00:00Z') },
        status: {
          phase: 'Pending',
          conditions: [
            { type: 'PodScheduled', status: 'False', reason: 'Unschedulable' },
          ],
        },
      },
    ],
    expected: { phase: 'pending', reason: 'Unschedulable' },
  },
];

describe('summarizeJob', () => {
  it.each(rules)('$rule', ({ status, pods, expected, says }) => {
    const progress = summarizeJob(job(status), pods);
    const { reason, ...rest } = expected;
    expect(progress).toMatchObject({
      name: 'phi-download',
      namespace: 'models',
      ...rest,
    });
    if ('reason' in expected) expect(progress.reason).toBe(reason);
    if (says) expect(progress.message).toMatch(says);
  });

  it('reads a missing or empty object without throwing', () => {
    expect(summarizeJob({})).toMatchObject({
      name: '',
      phase: 'pending',
      failedPods: 0,
    });
    expect(summarizeJob(undefined as any)).toMatchObject({ phase: 'pending' });
  });
});
