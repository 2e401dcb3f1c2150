import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import { targetLabel } from '@model-manager/plugin-model-manager-common';
import type { ModelManagerWaitingActionOptions } from './actionOptions';
import { ModelManagerClient } from '../client';
import { examples } from './rollout.examples';
import { logPlan, readPlan, staysOf } from './planRollout';
import {
  failedOutput,
  reportReadiness,
  rolloutName,
  summarize,
  throwIfUnfinished,
} from './rolloutOutcome';
import {
  rolloutApplyInputs,
  rolloutInputs,
  rolloutOutputs,
} from './rolloutSchemas';
import { rolloutTaskOptions } from './rolloutTaskOptions';
import { defaultBatchSize, runRollout } from './runRollout';
import { userFacingErrors } from './userFacingErrors';
import { readyTimeoutMs } from './waitForReady';

export const ROLLOUT_ACTION_ID = 'model-manager:rollout';

/**
 * `model-manager:rollout`: moves every deployment target of a runtime to what the catalog resolves
 * now (after `default_version` moved) or to a given version, canary first, then the rest with
 * bounded concurrency, through the model-manager backend as the user who started the task.
 */
export function createRolloutAction(options: ModelManagerWaitingActionOptions) {
  const client = ModelManagerClient.create(options);
  return createTemplateAction({
    id: ROLLOUT_ACTION_ID,
    description:
      "Rolls a runtime version out across the fleet: every target of the runtime whose live objects differ from what would be applied now (or, with version, from that version for targets no pin holds). Canary targets first (waiting until Ready), then the rest with bounded concurrency; stops once failures pass maxFailures. Each target is a deploy as the task's initiator, recorded as a rollout. A scaffolder dry run logs the plan and applies nothing. The whole rollout is one step, shown on the task page as one spinner until it ends; model-manager:rollout:plan, :canary, :wait-canary, :batches and :summary run the same rollout as one step per phase (templates/rollout-runtime-version).",
    examples,
    supportsDryRun: true,
    schema: {
      input: {
        runtime: rolloutInputs.runtime,
        version: z =>
          z
            .string()
            .optional()
            .describe(
              'A version of the runtime to move targets to (a key of its versions:). Leave it out to apply what the catalog resolves now, e.g. after moving default_version. Models pinned by server_version stay; held targets (a version an earlier rollout or a deploy request set) stay unless includeHeld',
            ),
        includeHeld: z =>
          z
            .boolean()
            .optional()
            .describe(
              'Move held targets too: those a rollout or a deploy request put on a version. Default false: they stay, listed with who held them and when',
            ),
        cluster: rolloutInputs.cluster,
        namespace: rolloutInputs.namespace,
        canary: rolloutInputs.canary,
        concurrency: rolloutApplyInputs.concurrency(
          'How many targets are applied at once after the canary (default 4)',
        ),
        batchSize: rolloutApplyInputs.batchSize(
          'How many targets go to the backend in one request after the canary (default 12 per target at once, at least 50, at most 200); each batch is checkpointed',
        ),
        maxFailures: rolloutApplyInputs.maxFailures(
          'Stop starting new targets once more than this many have failed (default 0: stop at the first failure)',
        ),
        force: rolloutInputs.force,
        waitForCanary: z =>
          z
            .boolean()
            .optional()
            .describe(
              'Wait until each canary target is Ready before going on (default true)',
            ),
        dryRun: z =>
          z
            .boolean()
            .optional()
            .describe(
              'Only log the plan: every target that would move and its changes, and those that stay and why (default false)',
            ),
        readyTimeoutSeconds: rolloutInputs.readyTimeoutSeconds,
      },
      output: {
        moved: rolloutOutputs.moved,
        failed: rolloutOutputs.failed,
        notAttempted: rolloutOutputs.notAttempted,
        ready: z =>
          z
            .array(z.string())
            .optional()
            .describe('Moved targets KServe reports Ready at the end'),
        notReady: z =>
          z
            .array(z.string())
            .optional()
            .describe(
              'Moved targets not Ready at the end, each with its state and reason',
            ),
        unchanged: rolloutOutputs.unchanged,
      },
    },
    async handler(ctx) {
      return userFacingErrors(options.logger, ROLLOUT_ACTION_ID, async () => {
        const input = ctx.input;
        const fromTask = await rolloutTaskOptions(ctx, client, options);
        const { credentials } = fromTask;
        const dryRun = ctx.isDryRun || input.dryRun === true;
        const plan = await readPlan({
          client,
          credentials,
          input,
          dryRun,
          checkpoint: fromTask.checkpoint,
        });
        logPlan(ctx.logger, plan, dryRun);
        ctx.output('unchanged', staysOf(plan));
        if (dryRun) {
          ctx.logger.info(
            `dry run: would move ${plan.moves.length} target(s); nothing applied`,
          );
          ctx.output('moved', []);
          ctx.output('failed', []);
          ctx.output('notAttempted', plan.moves.map(targetLabel));
          return;
        }
        const result = await runRollout({
          ...fromTask,
          moves: plan.moves,
          batchSize:
            input.batchSize ?? defaultBatchSize(input.concurrency ?? 4),
          canary: input.canary ?? 1,
          concurrency: input.concurrency ?? 4,
          maxFailures: input.maxFailures ?? 0,
          force: input.force === true,
          waitForCanary: input.waitForCanary !== false,
          readyTimeoutMs: readyTimeoutMs(input.readyTimeoutSeconds),
        });
        const moved = result.moved.map(o => o.target);
        ctx.output('moved', moved);
        ctx.output('failed', failedOutput(result));
        ctx.output('notAttempted', result.notAttempted);
        const readiness = await reportReadiness({
          client,
          credentials,
          runtime: input.runtime,
          moved,
          logger: ctx.logger,
        });
        ctx.output('ready', readiness.ready);
        ctx.output('notReady', readiness.notReady);
        const summary = summarize(result, plan.moves.length);
        throwIfUnfinished(
          rolloutName(input.runtime, input.version),
          result,
          summary,
        );
        ctx.logger.info(`rollout done: ${summary}`);
      });
    },
  });
}
