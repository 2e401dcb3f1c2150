import {
  actionContext,
  checkpointStore,
  type DeployInput,
  LLM_ISVC,
  startActionBackend,
} from '../__testUtils__/actionTestContext';
import { createDeployModelAction } from './deploy';

type Backend = Awaited<ReturnType<typeof startActionBackend>>;

const ISVC = {
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  namespace: 'models',
};

const condition = (type: string, status: string, extra: object = {}) => ({
  type,
  status,
  lastTransitionTime: '2026-11-30T12:00:00Z',
  ...extra,
});

describe('model-manager:deploy with waitForReady', () => {
  let mm: Backend;
  let action: ReturnType<typeof createDeployModelAction>;
  beforeAll(async () => {
    mm = await startActionBackend();
    action = createDeployModelAction({
      discovery: mm.discovery,
      auth: mm.auth,
      readyPollIntervalMs: 10,
    });
  }, 120_000);
  afterAll(async () => {
    await mm.stop();
  }, 120_000);
  beforeEach(() => {
    mm.kube.faults.clear();
    mm.kube.resetRequests();
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  /** Runs `onWaiting` (a stand-in for the KServe controller) the first time the action says it waits. */
  function whenWaiting(
    run: ReturnType<typeof actionContext>,
    onWaiting: () => void,
  ) {
    let called = false;
    run.logger.info.mockImplementation((line: string) => {
      if (!called && line.startsWith('waiting for model')) {
        called = true;
        onWaiting();
      }
    });
  }

  it('waits until KServe reports Ready, logging what is wrong meanwhile', async () => {
    const name = 'qwen2-5-7b-instruct';
    const input: DeployInput = {
      model: name,
      cluster: 'local',
      namespace: 'models',
      waitForReady: true,
    };
    const run = actionContext(input);
    whenWaiting(run, () => {
      // The controller first reports a failing rollout, then (next poll) Ready.
      mm.kube.store.setStatus(
        { ...LLM_ISVC, namespace: 'models', name },
        {
          conditions: [
            condition('Ready', 'True'),
            condition('WorkloadsReady', 'True'),
          ],
          url: `http://${name}.models.example.com`,
        },
      );
    });
    // Before the first status poll, the object reports not ready: its image cannot be pulled.
    const unsubscribe = mm.kube.store.subscribe(e => {
      const o = (e as any).object;
      if (
        o?.kind === 'LLMInferenceService' &&
        o.metadata?.name === name &&
        !o.status?.conditions
      ) {
        unsubscribe();
        queueMicrotask(() =>
          mm.kube.store.setStatus(
            { ...LLM_ISVC, namespace: 'models', name },
            {
              conditions: [
                condition('Ready', 'False', { reason: 'ImagePullBackOff' }),
                condition('WorkloadsReady', 'False', {
                  reason: 'ImagePullBackOff',
                  message: 'Back-off pulling image',
                }),
              ],
            },
          ),
        );
      }
    });

    await action.handler(run.ctx);

    const lines = run.logger.info.mock.calls.map(c => c[0] as string);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^waiting for model qwen2-5-7b-instruct to become Ready on cluster local, namespace models: WorkloadsReady is False: .*ImagePullBackOff: Back-off pulling image/,
        ),
        `model ${name} is Ready on cluster local, namespace models: http://${name}.models.example.com`,
      ]),
    );
    expect(run.outputs()).toMatchObject({
      ready: true,
      // The base URL OpenAI clients take: KServe's status.url with vLLM's /v1.
      endpoint: `http://${name}.models.example.com/v1`,
    });
    // It asked the backend more than once, and the backend read the live object each time.
    const reads = mm.kube.requests.filter(
      r =>
        r.method === 'GET' && r.path.endsWith(`/llminferenceservices/${name}`),
    );
    expect(reads.length).toBeGreaterThanOrEqual(2);
  });

  it('says how long it waits, and once a minute that it still waits and why', async () => {
    // A model no other test here deploys: not Ready until this test says so.
    const name = 'qwen2-5-vl-7b-instruct';
    const run = actionContext<DeployInput>({
      model: name,
      cluster: 'local',
      namespace: 'models',
      waitForReady: true,
      readyTimeoutSeconds: 600,
    });
    const realNow = Date.now;
    let skew = 0;
    jest.spyOn(Date, 'now').mockImplementation(() => realNow() + skew);
    let polls = 0;
    run.logger.info.mockImplementation((line: string) => {
      // Nothing changes on the cluster: a minute passes at once, twice, then KServe says Ready.
      if (line.startsWith('waiting for model') || line.startsWith('still')) {
        polls += 1;
        if (polls <= 2) skew += 61_000;
        else
          mm.kube.store.setStatus(
            { ...LLM_ISVC, namespace: 'models', name },
            {
              conditions: [
                condition('Ready', 'True'),
                condition('WorkloadsReady', 'True'),
              ],
            },
          );
      }
    });

    await action.handler(run.ctx);

    const lines = run.logger.info.mock.calls
      .map(c => c[0] as string)
      .filter(l => /^(waiting|still waiting)/.test(l));
    expect(lines).toEqual([
      expect.stringMatching(
        /^waiting for model qwen2-5-vl-7b-instruct to become Ready on cluster local, namespace models: .+ \(it waits up to 10 min\)$/,
      ),
      expect.stringMatching(
        /^still waiting for model qwen2-5-vl-7b-instruct on cluster local, namespace models \(61 s of 10 min\): .+/,
      ),
      expect.stringMatching(
        /^still waiting for model qwen2-5-vl-7b-instruct on cluster local, namespace models \(2 min of 10 min\): .+/,
      ),
    ]);
    expect(run.outputs().ready).toBe(true);
  });

  it('fails after readyTimeoutSeconds with the last state, the objects staying applied', async () => {
    const name = 'bge-small-en-v1-5-ov';
    const input: DeployInput = {
      model: name,
      cluster: 'local',
      namespace: 'models',
      waitForReady: true,
      readyTimeoutSeconds: 120,
    };
    const run = actionContext(input);
    const realNow = Date.now;
    let skew = 0;
    jest.spyOn(Date, 'now').mockImplementation(() => realNow() + skew);
    // Once it waits, two minutes pass at once (no real waiting in this test).
    whenWaiting(run, () => {
      skew = 121_000;
    });

    await expect(action.handler(run.ctx)).rejects.toThrow(
      /^model bge-small-en-v1-5-ov was applied \(revision \d+\) but is not Ready on cluster local, namespace models after 120 s: KServe has not reported a Ready condition for this InferenceService yet.* The objects stay applied/,
    );
    expect(mm.kube.store.get({ ...ISVC, name })).toBeDefined();
    expect(run.outputs().revision).toEqual(expect.any(Number));
    expect(run.outputs().ready).toBeUndefined();
  });

  it('on timeout, logs why it is not Ready in words (the diagnosis) and says it in the error', async () => {
    const name = 'bge-small-en-v1-5-ov';
    const run = actionContext({
      model: name,
      cluster: 'local',
      namespace: 'models',
      waitForReady: true,
      readyTimeoutSeconds: 120,
    } as DeployInput);
    const realNow = Date.now;
    let skew = 0;
    jest.spyOn(Date, 'now').mockImplementation(() => realNow() + skew);
    // The predictor pod KServe made cannot pull its image (what the kubelet would report).
    mm.kube.store.put({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `${name}-predictor-0`,
        namespace: 'models',
        labels: { 'serving.kserve.io/inferenceservice': name },
      },
      spec: { containers: [{ name: 'kserve-container', image: 'x' }] },
      status: {
        phase: 'Pending',
        containerStatuses: [
          {
            name: 'kserve-container',
            ready: false,
            restartCount: 0,
            state: { waiting: { reason: 'ImagePullBackOff' } },
          },
        ],
      },
    });
    whenWaiting(run, () => {
      skew = 121_000;
    });

    await expect(action.handler(run.ctx)).rejects.toThrow(
      /is not Ready on cluster local, namespace models after 120 s: the node cannot pull the serving image \(container kserve-container of pod bge-small-en-v1-5-ov-predictor-0: "ImagePullBackOff"\); fix: check that the image and tag exist/,
    );
    expect(run.logger.warn).toHaveBeenCalledWith(
      expect.stringMatching(
        /^why not ready on local\/models: the node cannot pull the serving image/,
      ),
    );
    expect(run.logger.warn).toHaveBeenCalledWith(
      '  pod bge-small-en-v1-5-ov-predictor-0 (Pending) container kserve-container: waiting, ImagePullBackOff',
    );
  });

  it('a resumed task waits again without applying again', async () => {
    const name = 'llama-3-1-8b-instruct';
    const input: DeployInput = {
      model: name,
      cluster: 'local',
      namespace: 'models',
      waitForReady: true,
    };
    const store = checkpointStore();
    // The first run is cancelled while it waits, as when the task is stopped.
    const controller = new AbortController();
    const first = actionContext(input, { checkpoint: store.checkpoint });
    first.ctx.signal = controller.signal;
    whenWaiting(first, () => controller.abort());
    await expect(action.handler(first.ctx)).rejects.toThrow(/abort/i);
    const applies = () =>
      mm.kube.requests.filter(
        r =>
          r.method === 'PATCH' &&
          !r.query.dryRun &&
          r.path.endsWith(`/${name}`),
      ).length;
    expect(applies()).toBe(1);

    const resumed = actionContext(input, { checkpoint: store.checkpoint });
    whenWaiting(resumed, () =>
      mm.kube.store.setStatus(
        { ...LLM_ISVC, namespace: 'models', name },
        { conditions: [condition('Ready', 'True')] },
      ),
    );
    await action.handler(resumed.ctx);
    expect(resumed.outputs().ready).toBe(true);
    expect(applies()).toBe(1);
  });

  it('a dry run does not wait', async () => {
    const run = actionContext({
      model: 'bge-m3',
      cluster: 'local',
      namespace: 'models',
      waitForReady: true,
      dryRun: true,
    } as DeployInput);
    await action.handler(run.ctx);
    expect(run.outputs().ready).toBeUndefined();
    expect(
      run.logger.info.mock.calls.some(c => String(c[0]).startsWith('waiting')),
    ).toBe(false);
  });
});
