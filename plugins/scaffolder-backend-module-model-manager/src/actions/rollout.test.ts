import {
  ALICE,
  actionContext,
  checkpointStore,
  exampleInput,
  LLM_ISVC,
} from '../__testUtils__/actionTestContext';
import { createRolloutAction } from './rollout';
import { examples } from './rollout.examples';
import { FLEET_MODELS, useRolloutFleet } from '../__testUtils__/fleetCatalog';

const MODELS = FLEET_MODELS;

describe('model-manager:rollout', () => {
  const fleet = useRolloutFleet();
  const action = () =>
    createRolloutAction({
      discovery: fleet.mm.discovery,
      auth: fleet.mm.auth,
      readyPollIntervalMs: 1,
    });
  const liveVersion = async (model: string) =>
    (
      (await fleet.mm.live({
        ...LLM_ISVC,
        name: model,
        namespace: 'models',
      })) as any
    )?.metadata?.labels?.['model-manager.io/server-version'];

  it('moves every outdated target once: canary first, then the rest; progress in the log; recorded as rollouts', async () => {
    const { ctx, lines, messages, outputs } = actionContext({
      runtime: 'vllm',
      canary: 1,
      concurrency: 3,
    });
    await action().handler(ctx as any);
    expect(outputs().moved.sort()).toEqual(
      MODELS.map(m => `${m}@local/models`),
    );
    expect(outputs().failed).toEqual([]);
    expect(outputs().notAttempted).toEqual([]);
    // Moved and Ready (KServe's Ready condition, kept across the apply): said by target.
    expect(outputs().ready.sort()).toEqual(
      MODELS.map(m => `${m}@local/models`),
    );
    expect(outputs().notReady).toEqual([]);
    expect(lines()).toContain(
      `Ready now: 8 of 8 moved (${outputs().ready.join(', ')})`,
    );
    for (const model of MODELS) {
      expect(fleet.appliesOf(model)).toBe(1);
      expect(await liveVersion(model)).toBe('0.19.1');
    }
    const log = lines();
    // A real run logs the plan as counts, then each target as it moves.
    expect(log).toContain('  move 0.24.0 -> 0.19.1: 8 target(s)');
    expect(log.filter(l => /^ {2}move model-/.test(l))).toEqual([]);
    expect(log).toContain('canary: model-0@local/models');
    expect(log).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^1\/8 model-0@local\/models: moved 0\.24\.0 -> 0\.19\.1 \(revision \d+\)$/,
        ),
        expect.stringMatching(/^8\/8 /),
      ]),
    );
    // The targets of one batch are one task log event, a line each, in the order they moved.
    const batch = messages().filter(
      m => /^\d\/8 /.test(m) && !m.startsWith('1/8'),
    );
    expect(batch).toHaveLength(1);
    expect(batch[0].split('\n').map(l => l.split(' ')[0])).toEqual([
      '2/8',
      '3/8',
      '4/8',
      '5/8',
      '6/8',
      '7/8',
      '8/8',
    ]);
    // The canary was Ready before any other target started.
    const readyAt = log.findIndex(l => /^model model-0 is Ready/.test(l));
    expect(readyAt).toBe(log.findIndex(l => l.startsWith('1/8')) + 1);
    expect(readyAt).toBeLessThan(log.findIndex(l => l.startsWith('2/8')));
    const history = await fleet.mm.history('model-3');
    expect(history[0]).toMatchObject({
      action: 'rollout',
      outcome: 'succeeded',
      actor: ALICE,
    });
    expect(outputs().unchanged).toEqual([]);
  });

  it('says which moved targets are Ready at the end, and why the others are not', async () => {
    await fleet.mm.kube.objects.setStatus(
      { ...LLM_ISVC, name: 'model-7', namespace: 'models' },
      {
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            reason: 'MinimumReplicasUnavailable',
            message: 'Deployment does not have minimum availability.',
            lastTransitionTime: '2026-12-01T00:00:00Z',
          },
        ],
      },
    );
    const { ctx, lines, outputs } = actionContext({
      runtime: 'vllm',
      canary: 1,
      concurrency: 3,
    });
    await action().handler(ctx as any);
    expect(outputs().moved).toHaveLength(8);
    expect(outputs().ready).toHaveLength(7);
    expect(outputs().ready).not.toContain('model-7@local/models');
    expect(outputs().notReady).toEqual([
      expect.stringMatching(/^model-7@local\/models \(NotReady/),
    ]);
    expect(lines()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^Ready now: 7 of 8 moved \(.*\); not Ready yet: model-7@local\/models \(NotReady/,
        ),
      ]),
    );
  });

  it('stops once failures pass maxFailures and says which targets moved, failed and were not attempted', async () => {
    // The API server refuses the applies of model-2 and model-3 (a conflict is never retried).
    fleet.mm.kube.faults.inject({
      kind: 'status',
      code: 409,
      times: 5,
      match: { method: 'PATCH', pathIncludes: '/llminferenceservices/model-2' },
    });
    fleet.mm.kube.faults.inject({
      kind: 'status',
      code: 409,
      times: 5,
      match: { method: 'PATCH', pathIncludes: '/llminferenceservices/model-3' },
    });
    const { ctx, outputs } = actionContext({
      runtime: 'vllm',
      canary: 1,
      concurrency: 1,
      maxFailures: 1,
      waitForCanary: false,
    });
    await expect(action().handler(ctx as any)).rejects.toThrow(
      /^rollout of vllm stopped: 2 target\(s\) failed, more than maxFailures \(1\); no new target was started\. moved 2 of 8 target\(s\); failed: model-2@local\/models \(.+\); model-3@local\/models \(.+\); not attempted: model-4@local\/models, model-5@local\/models, model-6@local\/models, model-7@local\/models$/,
    );
    expect(outputs().moved).toEqual([
      'model-0@local/models',
      'model-1@local/models',
    ]);
    expect(outputs().failed.map((f: any) => f.target)).toEqual([
      'model-2@local/models',
      'model-3@local/models',
    ]);
    for (const model of ['model-4', 'model-5', 'model-6', 'model-7']) {
      expect(fleet.appliesOf(model)).toBe(0);
      expect(await liveVersion(model)).toBe('0.24.0');
    }
  });

  it('a failure when every target was attempted is not a stop: the rollout finished with failures', async () => {
    fleet.mm.kube.faults.inject({
      kind: 'status',
      code: 409,
      times: 5,
      match: { method: 'PATCH', pathIncludes: '/llminferenceservices/model-7' },
    });
    const { ctx, outputs } = actionContext({
      runtime: 'vllm',
      canary: 1,
      concurrency: 1,
      maxFailures: 0,
      waitForCanary: false,
    });
    await expect(action().handler(ctx as any)).rejects.toThrow(
      /^rollout of vllm finished with failures: every target was attempted\. moved 7 of 8 target\(s\); failed: model-7@local\/models \(.+\)$/,
    );
    expect(outputs().notAttempted).toEqual([]);
  });

  it('a cancelled rollout says it was cancelled, what moved and what was not attempted', async () => {
    const controller = new AbortController();
    const { ctx, outputs } = actionContext({
      runtime: 'vllm',
      canary: 1,
      concurrency: 1,
      waitForCanary: false,
    });
    // Cancelled once the task log says the canary moved.
    const handler = action().handler({
      ...ctx,
      signal: controller.signal,
      logger: {
        ...ctx.logger,
        info: (line: string) => {
          ctx.logger.info(line);
          if (
            line.includes('model-0@local/models') &&
            !line.startsWith('canary')
          )
            controller.abort();
        },
      },
    } as any);
    await expect(handler).rejects.toThrow(
      /^rollout of vllm cancelled: no target was started after the cancel\. moved 1 of 8 target\(s\); not attempted: model-1@local\/models, .*model-7@local\/models$/,
    );
    expect(outputs().moved).toEqual(['model-0@local/models']);
    expect(MODELS.slice(1).map(fleet.appliesOf)).toEqual(Array(7).fill(0));
  });

  it('a failed canary stops the rollout before any other target', async () => {
    fleet.mm.kube.faults.inject({
      kind: 'status',
      code: 409,
      times: 5,
      match: { method: 'PATCH', pathIncludes: '/llminferenceservices/model-0' },
    });
    const { ctx } = actionContext({
      runtime: 'vllm',
      canary: 1,
      maxFailures: 5,
    });
    await expect(action().handler(ctx as any)).rejects.toThrow(
      /stopped: canary model-0@local\/models failed; the rest was not attempted\. moved 0 of 8/,
    );
    expect(MODELS.slice(1).map(fleet.appliesOf)).toEqual(Array(7).fill(0));
  });

  it('a task cut short and resumed applies each target exactly once (checkpoints, and the backend skips what the rollout applied)', async () => {
    // The plan the backend answers carries each move's preflight checks (not kept, below).
    const asked = await fleet.call('GET', '/rollouts/plan?runtime=vllm');
    expect(asked.body.moves[0].preflight.length).toBeGreaterThan(0);
    const store = checkpointStore();
    // The backend dies after applying the second batch, before its checkpoint is saved.
    const dying: typeof store.checkpoint = async options => {
      if (options.key.startsWith('rollout-batch-2-')) {
        await options.fn();
        throw new Error('backend killed');
      }
      return store.checkpoint(options);
    };
    const input = {
      runtime: 'vllm',
      canary: 1,
      waitForCanary: false,
      batchSize: 2,
      concurrency: 2,
    };
    const first = actionContext(input, {
      checkpoint: dying,
      taskId: 'task-cut-short',
    });
    await expect(action().handler(first.ctx as any)).rejects.toThrow(
      'backend killed',
    );
    // The canary and two batches of two were applied.
    expect(MODELS.map(fleet.appliesOf)).toEqual([1, 1, 1, 1, 1, 0, 0, 0]);
    // On restart the scaffolder runs the task again, with its checkpoints and its id.
    const resumed = actionContext(input, {
      checkpoint: store.checkpoint,
      taskId: 'task-cut-short',
    });
    await action().handler(resumed.ctx as any);
    expect(MODELS.map(fleet.appliesOf)).toEqual(Array(8).fill(1));
    // The kept plan holds each move, without the field changes and preflight checks (the task
    // state is rewritten at every checkpoint).
    const kept = store.values.get('rollout-plan-vllm-resolved') as any;
    expect(kept.moves).toHaveLength(8);
    expect(kept.moves.some((m: any) => 'preflight' in m)).toBe(false);
    expect(kept.moves[0]).toMatchObject({
      model: 'model-0',
      fromVersion: '0.24.0',
      toVersion: '0.19.1',
      changes: [],
    });
    expect(resumed.outputs().moved.sort()).toEqual(
      MODELS.map(m => `${m}@local/models`),
    );
    expect(resumed.lines()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^\d\/8 model-3@local\/models: moved 0\.24\.0 -> 0\.19\.1 \(revision \d+\) before the task was interrupted; not applied again$/,
        ),
      ]),
    );
    // One rollout row per model in the history.
    for (const model of MODELS) {
      expect(
        (await fleet.mm.history(model)).filter(
          (r: any) => r.rolloutId === 'task-cut-short',
        ),
      ).toHaveLength(1);
    }
  });

  it('a dry run logs the plan and applies nothing', async () => {
    const { ctx, lines, outputs } = actionContext(
      { runtime: 'vllm', version: '0.19.1' },
      { isDryRun: true },
    );
    await action().handler(ctx as any);
    expect(lines()).toEqual(
      expect.arrayContaining([
        'plan for runtime vllm toward 0.19.1: 8 target(s) to move, 0 staying',
        expect.stringMatching(
          /^ {2}move model-0@local\/models 0\.24\.0 -> 0\.19\.1: .*\.spec\.template\.containers\[name=main\]\.image/,
        ),
        'dry run: would move 8 target(s); nothing applied',
      ]),
    );
    expect(outputs().notAttempted).toHaveLength(8);
    expect(MODELS.map(fleet.appliesOf)).toEqual(Array(8).fill(0));
  });

  it('leaves a held target where a request put it, naming the hold; includeHeld moves it and says which hold it releases', async () => {
    expect(
      (
        await fleet.call('POST', '/models/model-0/deploy', {
          cluster: 'local',
          namespace: 'models',
          serverVersion: '0.24.0',
        })
      ).status,
    ).toBe(200);
    const held = actionContext({ runtime: 'vllm' }, { isDryRun: true });
    await action().handler(held.ctx as any);
    expect(held.lines()).toContainEqual(
      expect.stringMatching(
        /^ {2}stay model-0@local\/models: held at 0\.24\.0 by request of .* by user:default\/alice \(revision \d+\); models\.yaml default 0\.19\.1; plan with includeHeld to move it$/,
      ),
    );
    expect(held.outputs().notAttempted).toHaveLength(7);
    const all = actionContext(
      { runtime: 'vllm', includeHeld: true },
      { isDryRun: true },
    );
    await action().handler(all.ctx as any);
    expect(all.lines()).toContainEqual(
      expect.stringMatching(
        /^ {2}move model-0@local\/models 0\.24\.0 -> 0\.19\.1: .* \(releases: held at 0\.24\.0 by request/,
      ),
    );
    expect(all.outputs().notAttempted).toHaveLength(8);
  });

  it.each(examples.map(e => [e.description, e] as const))(
    'example: %s',
    async (_description, example) => {
      const { ctx, outputs } = actionContext(exampleInput(example), {
        isDryRun: true,
      });
      await action().handler(ctx as any);
      expect(outputs().notAttempted).toHaveLength(8);
    },
  );
});
