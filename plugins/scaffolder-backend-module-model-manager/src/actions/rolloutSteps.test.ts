import { randomUUID } from 'node:crypto';
import type { ActionContext } from '@backstage/plugin-scaffolder-node';
import {
  ALICE,
  actionContext,
  checkpointStore,
} from '../__testUtils__/actionTestContext';
import { FLEET_MODELS, useRolloutFleet } from '../__testUtils__/fleetCatalog';
import {
  createRolloutBatchesAction,
  createRolloutCanaryAction,
  createRolloutWaitCanaryAction,
} from './rolloutApplySteps';
import {
  createRolloutPlanAction,
  createRolloutSummaryAction,
} from './rolloutPlanSteps';

/*
 * The rollout as the template's steps (templates/rollout-runtime-version), run one after the other
 * as the scaffolder's workflow runner runs them: each step's input from the outputs of the steps
 * before, each step's checkpoints under its step id in the task's state, and a resumed task running
 * again only the step that did not finish.
 */
const MODELS = FLEET_MODELS;
const label = (m: string) => `${m}@local/models`;
type Store = ReturnType<typeof checkpointStore>;

describe('the rollout in template steps', () => {
  const fleet = useRolloutFleet();
  const deps = () => ({
    discovery: fleet.mm.discovery,
    auth: fleet.mm.auth,
    readyPollIntervalMs: 1,
  });
  const actions = () => ({
    plan: createRolloutPlanAction(deps()),
    canary: createRolloutCanaryAction(deps()),
    canaryReady: createRolloutWaitCanaryAction(deps()),
    rest: createRolloutBatchesAction(deps()),
    summary: createRolloutSummaryAction(deps()),
  });
  type StepId = keyof ReturnType<typeof actions>;

  /**
   * Runs one step of task `taskId` as the workflow runner does: the action's checkpoints are
   * stored under `v1.task.checkpoint.<step id>.<key>` in the task's store.
   */
  function step(
    id: StepId,
    input: Record<string, any>,
    task: { id: string; store: Store },
    options: {
      isDryRun?: boolean;
      signal?: AbortSignal;
      checkpoint?: ActionContext<{}>['checkpoint'];
    } = {},
  ) {
    const checkpoint = options.checkpoint ?? task.store.checkpoint;
    const context = actionContext(input, {
      taskId: task.id,
      isDryRun: options.isDryRun,
      checkpoint: o =>
        checkpoint({ ...o, key: `v1.task.checkpoint.${id}.${o.key}` }),
    });
    const run = actions()[id].handler({
      ...context.ctx,
      ...(options.signal ? { signal: options.signal } : {}),
    } as any);
    return { ...context, run };
  }
  const newTask = () => ({ id: randomUUID(), store: checkpointStore() });

  /** Real applies (PATCH without dryRun) of each model's LLMInferenceService. */
  const applies = () => MODELS.map(model => fleet.appliesOf(model));
  /** Until the task log has a line matching `pattern` (the action got there; no fixed wait). */
  const logged = async (lines: () => string[], pattern: RegExp) => {
    while (!lines().some(l => pattern.test(l)))
      await new Promise(resolve => setImmediate(resolve));
  };

  it('phase by phase: the plan, the canary alone, its wait for Ready, the rest, then which are Ready; each step says what it did', async () => {
    const task = newTask();
    const plan = step('plan', { runtime: 'vllm', canary: 1 }, task);
    await plan.run;
    const planned = plan.outputs();
    expect(planned.summary).toBe(
      '8 target(s) to move: canary model-0@local/models, then 7 more; 0 stay as they are.',
    );
    expect(planned.total).toBe(8);
    expect(planned.canary.map((m: any) => m.model)).toEqual(['model-0']);
    expect(planned.rest.map((m: any) => m.model)).toEqual(MODELS.slice(1));
    expect(applies()).toEqual(Array(8).fill(0));

    // The canary is applied alone, and its step ends without waiting.
    const canary = step(
      'canary',
      { runtime: 'vllm', moves: planned.canary, total: planned.total },
      task,
    );
    await canary.run;
    expect(applies()).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(canary.outputs().moved).toEqual([label('model-0')]);
    expect(canary.outputs().applied).toEqual([
      {
        target: label('model-0'),
        model: 'model-0',
        cluster: 'local',
        namespace: 'models',
        revision: expect.any(Number),
      },
    ]);
    expect(canary.outputs().summary).toMatch(
      /^moved model-0@local\/models 0\.24\.0 -> 0\.19\.1 \(revision \d+\)\.$/,
    );
    expect(canary.lines()).toContainEqual(
      expect.stringMatching(/^1\/8 model-0@local\/models: moved/),
    );
    expect(
      canary.lines().filter(l => /^model model-0 is Ready/.test(l)),
    ).toEqual([]);

    // Its own step waits until KServe reports it Ready.
    await fleet.setReady('model-0', false);
    const wait = step(
      'canaryReady',
      { runtime: 'vllm', applied: canary.outputs().applied },
      task,
    );
    await logged(
      wait.lines,
      /^waiting for model model-0 to become Ready on cluster local, namespace models/,
    );
    expect(applies()).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    await fleet.setReady('model-0', true);
    await wait.run;
    expect(wait.outputs()).toEqual({
      ready: [label('model-0')],
      summary: 'Ready: model-0@local/models.',
    });

    const rest = step(
      'rest',
      {
        runtime: 'vllm',
        moves: planned.rest,
        total: planned.total,
        before: planned.canary.length,
        concurrency: 3,
      },
      task,
    );
    await rest.run;
    expect(applies()).toEqual(Array(8).fill(1));
    expect(rest.outputs().moved).toEqual(MODELS.slice(1).map(label));
    // Progress counts over the whole rollout, after the canary.
    expect(
      rest
        .lines()
        .filter(l => /^\d\/8 /.test(l))
        .map(l => l.split(' ')[0]),
    ).toEqual(['2/8', '3/8', '4/8', '5/8', '6/8', '7/8', '8/8']);
    expect(rest.outputs().summary).toMatch(
      /^moved 7 target\(s\) after the canary: model-1@local\/models 0\.24\.0 -> 0\.19\.1 \(revision \d+\), .*model-7@local\/models 0\.24\.0 -> 0\.19\.1 \(revision \d+\)\.$/,
    );

    await fleet.setReady('model-7', false);
    const summary = step(
      'summary',
      {
        runtime: 'vllm',
        moved: [canary.outputs().moved, rest.outputs().moved],
        total: planned.total,
      },
      task,
    );
    await summary.run;
    expect(summary.outputs().ready).toEqual(MODELS.slice(0, 7).map(label));
    expect(summary.outputs().notReady).toEqual([
      expect.stringMatching(/^model-7@local\/models \(NotReady/),
    ]);
    expect(summary.outputs().summary).toMatch(
      /^Ready now: 7 of 8 moved \(model-0@local\/models, .*\); not Ready yet: model-7@local\/models \(NotReady.*\)$/,
    );
    expect(summary.lines()).toContain('rollout done: moved 8 of 8 target(s)');

    // Every checkpoint key names its step and its phase.
    expect([...task.store.values.keys()].sort()).toEqual([
      'v1.task.checkpoint.canary.rollout-canary-model-0@local/models',
      'v1.task.checkpoint.plan.rollout-plan-vllm-resolved',
      'v1.task.checkpoint.rest.rollout-batch-0-50',
    ]);
    // One rollout row per model, under the task's id.
    const history = await fleet.mm.history('model-3');
    expect(history[0]).toMatchObject({
      action: 'rollout',
      outcome: 'succeeded',
      actor: ALICE,
      rolloutId: task.id,
    });
  });

  it('a task resumed mid-phase applies no finished target again: cut inside the canary, while it waits, and inside the rest', async () => {
    const task = newTask();
    /** The backend dies after `fn` of the checkpoint whose key starts with `prefix` ran, before it is saved. */
    const dyingAt =
      (prefix: string): ActionContext<{}>['checkpoint'] =>
      async options => {
        if (options.key.startsWith(prefix)) {
          await options.fn();
          throw new Error('backend killed');
        }
        return task.store.checkpoint(options);
      };
    const plan = step('plan', { runtime: 'vllm', canary: 1 }, task);
    await plan.run;
    const planned = plan.outputs();
    const canaryInput = { runtime: 'vllm', moves: planned.canary, total: 8 };

    // Killed after the canary's apply, before its checkpoint was saved: the step runs again.
    await expect(
      step('canary', canaryInput, task, {
        checkpoint: dyingAt('v1.task.checkpoint.canary.'),
      }).run,
    ).rejects.toThrow('backend killed');
    expect(applies()).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    const canary = step('canary', canaryInput, task);
    await canary.run;
    expect(applies()).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(canary.lines()).toContainEqual(
      expect.stringMatching(
        /^1\/8 model-0@local\/models: moved 0\.24\.0 -> 0\.19\.1 \(revision \d+\) before the task was interrupted; not applied again$/,
      ),
    );

    // Cut short while it waits for Ready (a restart ends the step), then run again.
    await fleet.setReady('model-0', false);
    const controller = new AbortController();
    const waitInput = { runtime: 'vllm', applied: canary.outputs().applied };
    const cut = step('canaryReady', waitInput, task, {
      signal: controller.signal,
    });
    await logged(cut.lines, /^waiting for model model-0 to become Ready/);
    controller.abort();
    await expect(cut.run).rejects.toThrow(
      /^rollout of vllm cancelled: no target was started after the cancel\./,
    );
    await fleet.setReady('model-0', true);
    await step('canaryReady', waitInput, task).run;
    expect(applies()).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);

    // Killed after the rest's second batch was applied, before its checkpoint was saved.
    const restInput = {
      runtime: 'vllm',
      moves: planned.rest,
      total: 8,
      before: 1,
      batchSize: 2,
      concurrency: 2,
    };
    await expect(
      step('rest', restInput, task, {
        checkpoint: dyingAt('v1.task.checkpoint.rest.rollout-batch-2-'),
      }).run,
    ).rejects.toThrow('backend killed');
    expect(applies()).toEqual([1, 1, 1, 1, 1, 0, 0, 0]);
    const rest = step('rest', restInput, task);
    await rest.run;
    expect(applies()).toEqual(Array(8).fill(1));
    expect(rest.outputs().moved).toEqual(MODELS.slice(1).map(label));
    expect(rest.lines()).toContainEqual(
      expect.stringMatching(
        /^\d\/8 model-3@local\/models: moved .* before the task was interrupted; not applied again$/,
      ),
    );
    for (const model of MODELS)
      expect(
        (await fleet.mm.history(model)).filter(
          (r: any) => r.rolloutId === task.id,
        ),
      ).toHaveLength(1);
  });

  it('a dry run says "would move N", naming them, and applies nothing; a scaffolder dry run of the apply steps applies nothing', async () => {
    const task = newTask();
    const plan = step(
      'plan',
      { runtime: 'vllm', version: '0.19.1', dryRun: true },
      task,
    );
    await plan.run;
    expect(plan.outputs().summary).toBe(
      `would move 8 target(s): ${MODELS.map(label).join(
        ', ',
      )}; 0 stay as they are. Nothing applied.`,
    );
    expect(plan.lines()).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^ {2}move model-0@local\/models 0\.24\.0 -> 0\.19\.1: .*\.spec\.template\.containers\[name=main\]\.image/,
        ),
        `dry run: ${plan.outputs().summary}`,
      ]),
    );
    const canary = step(
      'canary',
      { runtime: 'vllm', moves: plan.outputs().canary },
      task,
      { isDryRun: true },
    );
    await canary.run;
    expect(canary.outputs().summary).toBe(
      'dry run: would apply the canary model-0@local/models.',
    );
    const rest = step(
      'rest',
      { runtime: 'vllm', moves: plan.outputs().rest },
      task,
      { isDryRun: true },
    );
    await rest.run;
    expect(rest.outputs().summary).toBe(
      'dry run: would move 7 target(s) after the canary.',
    );
    expect(applies()).toEqual(Array(8).fill(0));
  });

  it('a canary not Ready in time fails its wait step, naming why; the rest is never started', async () => {
    const task = newTask();
    const plan = step('plan', { runtime: 'vllm' }, task);
    await plan.run;
    const canary = step(
      'canary',
      { runtime: 'vllm', moves: plan.outputs().canary },
      task,
    );
    await canary.run;
    await fleet.setReady('model-0', false);
    await expect(
      step(
        'canaryReady',
        {
          runtime: 'vllm',
          applied: canary.outputs().applied,
          readyTimeoutSeconds: 1,
        },
        task,
      ).run,
    ).rejects.toThrow(
      /^rollout of vllm stopped: canary model-0@local\/models failed; the rest was not attempted\. canary Ready: 0 of 1; not Ready: model-0@local\/models \(canary applied \(revision \d+\) but not Ready: model model-0 was applied \(revision \d+\) but is not Ready on cluster local, namespace models after 1 s/,
    );
    expect(applies()).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('a failed target in the rest fails its step, saying what moved, what failed and which moved targets are Ready', async () => {
    fleet.mm.kube.faults.inject({
      kind: 'status',
      code: 409,
      times: 5,
      match: { method: 'PATCH', pathIncludes: '/llminferenceservices/model-7' },
    });
    const task = newTask();
    const plan = step('plan', { runtime: 'vllm' }, task);
    await plan.run;
    const rest = step(
      'rest',
      { runtime: 'vllm', moves: plan.outputs().rest, total: 8, before: 1 },
      task,
    );
    await expect(rest.run).rejects.toThrow(
      /^rollout of vllm finished with failures: every target was attempted\. after the canary: moved 6 of 7 target\(s\); failed: model-7@local\/models \(.+\)$/,
    );
    expect(rest.lines()).toContainEqual(
      expect.stringMatching(
        /^Ready now: 6 of 6 moved \(model-1@local\/models, /,
      ),
    );
  });
});
