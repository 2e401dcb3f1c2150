import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import {
  targetLabel,
  type RolloutMove,
} from '@model-manager/plugin-model-manager-common';
import type { ModelManagerWaitingActionOptions } from './actionOptions';
import { ModelManagerClient } from '../client';
import { namesOf } from './rolloutPlanSteps';
import {
  failedOutput,
  reportReadiness,
  rolloutName,
  summarize,
  throwIfUnfinished,
} from './rolloutOutcome';
import {
  appliedTargetSchema,
  rolloutApplyInputs,
  rolloutInputs,
  rolloutOutputs,
} from './rolloutSchemas';
import { rolloutTaskOptions } from './rolloutTaskOptions';
import {
  defaultBatchSize,
  runBatches,
  runCanary,
  type AppliedTarget,
  type RolloutResult,
} from './runRollout';
import { userFacingErrors } from './userFacingErrors';
import { waitCanaryReady } from './waitCanaryReady';
import { readyTimeoutMs } from './waitForReady';

export const ROLLOUT_CANARY_ACTION_ID = 'model-manager:rollout:canary';
export const ROLLOUT_WAIT_CANARY_ACTION_ID =
  'model-manager:rollout:wait-canary';
export const ROLLOUT_BATCHES_ACTION_ID = 'model-manager:rollout:batches';

/** `bge-m3@local/default 0.24.0 -> 0.19.1 (revision 2)` for each moved target. */
function movedNames(result: RolloutResult): string {
  return namesOf(
    result.moved.map(
      o =>
        `${o.target}${
          o.toVersion ? ` ${o.fromVersion ?? '?'} -> ${o.toVersion}` : ''
        }${o.revision !== undefined ? ` (revision ${o.revision})` : ''}`,
    ),
  );
}

/**
 * The moves of the plan step's `canary` or `rest` output, as the step's input gives them; the
 * backend checks their overrides again (rolloutApplyRequestSchema).
 */
function plannedMoves(input: { moves: unknown[] }): RolloutMove[] {
  return input.moves as RolloutMove[];
}

/**
 * `model-manager:rollout:canary`: applies the canary targets one at a time; each but the last
 * waits until Ready before the next, the last is waited for by `model-manager:rollout:wait-canary`
 * (its own step on the task page). A canary that fails stops the task.
 */
export function createRolloutCanaryAction(
  options: ModelManagerWaitingActionOptions,
) {
  const client = ModelManagerClient.create(options);
  return createTemplateAction({
    id: ROLLOUT_CANARY_ACTION_ID,
    description:
      "A step of a rollout in steps: applies the canary targets (the canary output of model-manager:rollout:plan) one at a time as the task's initiator, recorded as a rollout; each but the last waits until Ready before the next, and model-manager:rollout:wait-canary waits for the last. Checkpointed per target. A failed canary fails the step. A scaffolder dry run applies nothing.",
    supportsDryRun: true,
    schema: {
      input: {
        runtime: rolloutInputs.runtime,
        version: rolloutInputs.version,
        moves: rolloutInputs.moves,
        total: rolloutInputs.total,
        force: rolloutInputs.force,
        readyTimeoutSeconds: rolloutInputs.readyTimeoutSeconds,
      },
      output: {
        summary: rolloutOutputs.summary,
        moved: rolloutOutputs.moved,
        applied: z =>
          z
            .array(appliedTargetSchema(z))
            .describe(
              'The canary targets applied, with their revision: input of model-manager:rollout:wait-canary',
            ),
        failed: rolloutOutputs.failed,
        notAttempted: rolloutOutputs.notAttempted,
      },
    },
    async handler(ctx) {
      return userFacingErrors(
        options.logger,
        ROLLOUT_CANARY_ACTION_ID,
        async () => {
          const { input } = ctx;
          const moves = plannedMoves(input);
          if (ctx.isDryRun || moves.length === 0) {
            const summary =
              moves.length === 0
                ? 'none (Canary targets: 0).'
                : `dry run: would apply the canary ${namesOf(
                    moves.map(targetLabel),
                  )}.`;
            ctx.logger.info(
              moves.length === 0 ? `canary: ${summary}` : summary,
            );
            ctx.output('summary', summary);
            ctx.output('moved', []);
            ctx.output('applied', []);
            ctx.output('failed', []);
            ctx.output('notAttempted', []);
            return;
          }
          const result = await runCanary({
            ...(await rolloutTaskOptions(ctx, client, options)),
            moves,
            canary: moves.length,
            concurrency: 1,
            batchSize: 1,
            maxFailures: 0,
            force: input.force === true,
            waitForCanary: true,
            waitForLast: false,
            readyTimeoutMs: readyTimeoutMs(input.readyTimeoutSeconds),
            progress: { offset: 0, total: input.total ?? moves.length },
          });
          ctx.output(
            'moved',
            result.moved.map(o => o.target),
          );
          ctx.output('applied', result.applied);
          ctx.output('failed', failedOutput(result));
          ctx.output('notAttempted', result.notAttempted);
          throwIfUnfinished(
            rolloutName(input.runtime, input.version),
            result,
            `canary: ${summarize(result, moves.length)}`,
          );
          const summary = `moved ${movedNames(result)}.`;
          ctx.logger.info(
            `canary ${summary} The next step waits until it is Ready.`,
          );
          ctx.output('summary', summary);
        },
      );
    },
  });
}

/**
 * `model-manager:rollout:wait-canary`: waits until each applied canary target is Ready, as a step
 * of its own so the task page shows the wait. Not Ready in time: the canary failed, the step fails.
 */
export function createRolloutWaitCanaryAction(
  options: ModelManagerWaitingActionOptions,
) {
  const client = ModelManagerClient.create(options);
  return createTemplateAction({
    id: ROLLOUT_WAIT_CANARY_ACTION_ID,
    description:
      "A step of a rollout in steps: waits until each canary target model-manager:rollout:canary applied is Ready (KServe's Ready condition), logging each new state; one not Ready within readyTimeoutSeconds fails the step, so the rest is not attempted.",
    supportsDryRun: true,
    schema: {
      input: {
        runtime: rolloutInputs.runtime,
        version: rolloutInputs.version,
        applied: z =>
          z
            .array(appliedTargetSchema(z))
            .describe('The applied output of model-manager:rollout:canary'),
        readyTimeoutSeconds: rolloutInputs.readyTimeoutSeconds,
      },
      output: {
        summary: rolloutOutputs.summary,
        ready: z =>
          z.array(z.string()).describe('The canary targets now Ready'),
      },
    },
    async handler(ctx) {
      return userFacingErrors(
        options.logger,
        ROLLOUT_WAIT_CANARY_ACTION_ID,
        async () => {
          const { input } = ctx;
          const applied = input.applied as AppliedTarget[];
          if (ctx.isDryRun || applied.length === 0) {
            const summary = 'Nothing to wait for.';
            ctx.logger.info(summary);
            ctx.output('summary', summary);
            ctx.output('ready', []);
            return;
          }
          const result = await waitCanaryReady({
            ...(await rolloutTaskOptions(ctx, client, options)),
            applied,
            readyTimeoutMs: readyTimeoutMs(input.readyTimeoutSeconds),
          });
          ctx.output('ready', result.ready);
          throwIfUnfinished(
            rolloutName(input.runtime, input.version),
            result,
            `canary Ready: ${result.ready.length} of ${applied.length}${
              result.failed.length
                ? `; not Ready: ${result.failed
                    .map(o => `${o.target} (${o.message})`)
                    .join('; ')}`
                : ''
            }`,
          );
          const summary = `Ready: ${namesOf(result.ready)}.`;
          ctx.logger.info(`canary ${summary}`);
          ctx.output('summary', summary);
        },
      );
    },
  });
}

/**
 * `model-manager:rollout:batches`: applies the targets after the canary, a batch at a time, the
 * backend applying `concurrency` at once; stops starting batches once failures pass maxFailures.
 */
export function createRolloutBatchesAction(
  options: ModelManagerWaitingActionOptions,
) {
  const client = ModelManagerClient.create(options);
  return createTemplateAction({
    id: ROLLOUT_BATCHES_ACTION_ID,
    description:
      "A step of a rollout in steps: applies the targets after the canary (the rest output of model-manager:rollout:plan) as the task's initiator, in batches the backend applies concurrency at a time, each batch checkpointed; no new batch starts once failures pass maxFailures. Fails the step when a target failed, saying which moved, failed and were not attempted. A scaffolder dry run applies nothing.",
    supportsDryRun: true,
    schema: {
      input: {
        runtime: rolloutInputs.runtime,
        version: rolloutInputs.version,
        moves: rolloutInputs.moves,
        total: rolloutInputs.total,
        before: z =>
          z
            .number()
            .int()
            .min(0)
            .optional()
            .describe(
              'How many targets moved before this step (the canary), for the k/total progress lines',
            ),
        concurrency: rolloutApplyInputs.concurrency(
          'How many targets are applied at once (default 4)',
        ),
        batchSize: rolloutApplyInputs.batchSize(
          'How many targets go to the backend in one request (default 12 per target at once, at least 50, at most 200)',
        ),
        maxFailures: rolloutApplyInputs.maxFailures(
          'Stop starting new targets once more than this many have failed (default 0)',
        ),
        force: rolloutInputs.force,
      },
      output: {
        summary: rolloutOutputs.summary,
        moved: rolloutOutputs.moved,
        failed: rolloutOutputs.failed,
        notAttempted: rolloutOutputs.notAttempted,
      },
    },
    async handler(ctx) {
      return userFacingErrors(
        options.logger,
        ROLLOUT_BATCHES_ACTION_ID,
        async () => {
          const { input } = ctx;
          const moves = plannedMoves(input);
          if (ctx.isDryRun || moves.length === 0) {
            const summary =
              moves.length === 0
                ? 'Nothing after the canary.'
                : `dry run: would move ${moves.length} target(s) after the canary.`;
            ctx.logger.info(summary);
            ctx.output('summary', summary);
            ctx.output('moved', []);
            ctx.output('failed', []);
            ctx.output('notAttempted', []);
            return;
          }
          const fromTask = await rolloutTaskOptions(ctx, client, options);
          const concurrency = input.concurrency ?? 4;
          const result = await runBatches({
            ...fromTask,
            moves,
            canary: 0,
            concurrency,
            batchSize: input.batchSize ?? defaultBatchSize(concurrency),
            maxFailures: input.maxFailures ?? 0,
            force: input.force === true,
            waitForCanary: false,
            readyTimeoutMs: 0,
            progress: {
              offset: input.before ?? 0,
              total: input.total ?? (input.before ?? 0) + moves.length,
            },
          });
          const moved = result.moved.map(o => o.target);
          ctx.output('moved', moved);
          ctx.output('failed', failedOutput(result));
          ctx.output('notAttempted', result.notAttempted);
          const summary = summarize(result, moves.length);
          if (result.cancelled || result.stopped || result.failed.length) {
            // The summary step does not run after a failed step: say here which moved targets are Ready.
            await reportReadiness({
              client,
              credentials: fromTask.credentials,
              runtime: input.runtime,
              moved,
              logger: ctx.logger,
            });
            throwIfUnfinished(
              rolloutName(input.runtime, input.version),
              result,
              `after the canary: ${summary}`,
            );
          }
          const said = `moved ${moved.length} target(s)${
            input.before ? ' after the canary' : ''
          }${moved.length ? `: ${movedNames(result)}` : ''}.`;
          ctx.logger.info(said);
          ctx.output('summary', said);
        },
      );
    },
  });
}
