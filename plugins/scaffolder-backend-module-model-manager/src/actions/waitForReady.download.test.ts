import {
  actionContext,
  type DeployInput,
  startActionBackend,
} from '../__testUtils__/actionTestContext';
import { ModelManagerClient } from '../client';
import { createDeployModelAction } from './deploy';

type Backend = Awaited<ReturnType<typeof startActionBackend>>;

const OV = 'phi-3-5-mini-instruct-int4-ov';
const GATEWAY = 'https://ai-gateway.example.com';
const JOB = {
  apiVersion: 'batch/v1',
  kind: 'Job',
  namespace: 'models',
  name: `${OV}-download`,
};
const ISVC = {
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  namespace: 'models',
  name: OV,
};
const cond = (type: string, status = 'True', extra: object = {}) => ({
  type,
  status,
  lastTransitionTime: '2026-12-01T10:00:00Z',
  ...extra,
});
const pod = (name: string, status: Record<string, any>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace: 'models',
    creationTimestamp: `2026-12-01T10:0${name.slice(-1)}:00Z`,
    labels: { 'batch.kubernetes.io/job-name': JOB.name },
  },
  spec: {
    containers: [
      { name: 'ovms-pull', image: 'openvino/model_server:latest-py' },
    ],
  },
  status,
});

/**
 * The download as a cluster would go through it, one step per two polls of the action (so each
 * state is seen twice and must be logged once): the Job waits for a pod, the pod cannot be
 * scheduled, it runs, the download completes, KServe reports the InferenceService Ready.
 */
function download(mm: Backend): Array<() => void> {
  return [
    () =>
      mm.kube.store.put(
        pod('dl-1', {
          phase: 'Pending',
          conditions: [
            cond('PodScheduled', 'False', {
              reason: 'Unschedulable',
              message: 'pod has unbound immediate PersistentVolumeClaims',
            }),
          ],
        }),
      ),
    () => {
      mm.kube.store.setStatus(JOB, {
        active: 1,
        ready: 1,
        startTime: '2026-12-01T10:02:00Z',
      });
      mm.kube.store.put(pod('dl-1', { phase: 'Running' }));
    },
    () => {
      mm.kube.store.setStatus(JOB, {
        succeeded: 1,
        completionTime: '2026-12-01T10:20:00Z',
        conditions: [cond('SuccessCriteriaMet'), cond('Complete')],
      });
      mm.kube.store.put(pod('dl-1', { phase: 'Succeeded' }));
    },
    () =>
      mm.kube.store.setStatus(ISVC, {
        url: 'http://phi.models.example.com',
        conditions: [cond('Ready'), cond('PredictorReady')],
      }),
  ];
}

describe('model-manager:deploy with waitForReady: the weights download', () => {
  let mm: Backend;
  let action: ReturnType<typeof createDeployModelAction>;
  let polls: number;
  let afterPoll: (n: number) => void;
  beforeAll(async () => {
    mm = await startActionBackend({
      modelManagerConfig: {
        kubernetes: {
          retryBaseDelayMs: 1,
          requestTimeoutMs: 5000,
          clusters: { local: { gatewayBaseUrl: GATEWAY } },
        },
      },
    });
    action = createDeployModelAction({
      discovery: mm.discovery,
      auth: mm.auth,
      readyPollIntervalMs: 1,
    });
  }, 120_000);
  afterAll(() => mm.stop(), 120_000);
  beforeEach(() => {
    polls = 0;
    afterPoll = () => {};
    // Each status poll of the action, then the test's stand-in for the cluster moves on.
    const status = ModelManagerClient.prototype.status;
    jest
      .spyOn(ModelManagerClient.prototype, 'status')
      .mockImplementation(async function status2(
        this: ModelManagerClient,
        ...args
      ) {
        const result = await status.apply(this, args);
        afterPoll(++polls);
        return result;
      });
    for (const p of mm.kube.store.list({
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: 'models',
    })) {
      mm.kube.store.delete({
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: 'models',
        name: String((p.metadata as any).name),
      });
    }
    mm.kube.store.delete(JOB);
    mm.kube.store.delete(ISVC);
  });
  afterEach(() => jest.restoreAllMocks());

  const input: DeployInput = {
    model: OV,
    cluster: 'local',
    namespace: 'models',
    waitForReady: true,
  };

  it('logs each state of the download once, in order, then Ready; the endpoint is the gateway /v1', async () => {
    const steps = download(mm);
    afterPoll = n => {
      if (n % 2 === 0) steps[n / 2 - 1]?.();
    };
    const run = actionContext(input);
    await action.handler(run.ctx);

    const lines = run.logger.info.mock.calls
      .map(c => String(c[0]))
      .filter(l => l.startsWith('weights download'));
    expect(lines).toEqual([
      `weights download (Job models/${JOB.name}): pending: Waiting for the download pod to start: the Job controller has not started Job models/${JOB.name} yet (no pod, and no start time in its status). If it stays so, the Job's events say why (kubectl -n models describe job ${JOB.name}).`,
      `weights download (Job models/${JOB.name}): pending (Unschedulable): Waiting for the download pod to start (Unschedulable: pod has unbound immediate PersistentVolumeClaims).`,
      `weights download (Job models/${JOB.name}): running: Downloading.`,
      `weights download (Job models/${JOB.name}): complete: Download complete at 2026-12-01T10:20:00Z.`,
    ]);
    expect(polls).toBe(9);
    expect(run.outputs()).toMatchObject({
      ready: true,
      endpoint: `${GATEWAY}/v1`,
    });
  });

  it("a failed download ends the wait at once with the pod's reason", async () => {
    afterPoll = n => {
      if (n !== 1) return;
      mm.kube.store.setStatus(JOB, {
        failed: 3,
        conditions: [
          cond('FailureTarget', 'True', { reason: 'BackoffLimitExceeded' }),
          cond('Failed', 'True', { reason: 'BackoffLimitExceeded' }),
        ],
      });
      mm.kube.store.put(
        pod('dl-3', {
          phase: 'Failed',
          containerStatuses: [
            {
              name: 'ovms-pull',
              state: { terminated: { exitCode: 137, reason: 'OOMKilled' } },
            },
          ],
        }),
      );
    };
    const run = actionContext({ ...input, readyTimeoutSeconds: 3600 });
    await expect(action.handler(run.ctx)).rejects.toThrow(
      new RegExp(
        `^model ${OV} was applied \\(revision \\d+\\) but its weights download failed on cluster local, namespace models: Download failed \\(OOMKilled: exit code 137\\); the Job gave up: BackoffLimitExceeded.* delete Job models/${JOB.name} and deploy again`,
      ),
    );
    expect(polls).toBe(2);
    expect(run.logger.warn).toHaveBeenCalledWith(
      expect.stringMatching(
        /^weights download \(Job models\/.*\): failed \(OOMKilled\)/,
      ),
    );
    expect(run.outputs().ready).toBeUndefined();
  });
});
