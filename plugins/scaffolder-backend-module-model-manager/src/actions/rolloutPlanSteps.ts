import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import { targetLabel } from '@model-manager/plugin-model-manager-common';
import type { ModelManagerActionOptions } from './actionOptions';
import { ModelManagerClient } from '../client';
import { logPlan, readPlan, staysOf, withoutChanges } from './planRollout';
import { readinessLine, reportReadiness } from './rolloutOutcome';
import { rolloutInputs, rolloutOutputs } from './rolloutSchemas';
import { taskCheckpoint } from './rolloutTaskOptions';
import { userFacingErrors } from './userFacingErrors';

/*
 * The rollout as template steps (templates/rollout-runtime-version): plan, canary, the canary's
 * Ready wait, the rest, the summary. The scaffolder's task page (@backstage/plugin-scaffolder
 * 1.39 OngoingTask, @backstage/plugin-scaffolder-react 2.1 TaskSteps) shows each step of the task
 * spec with its status (a spinner while it runs, a check once done, skipped, failed) and its
 * duration; the template's output appears only when the task completes (useTaskEventStream sets
 * `output` on the `completion` event). So a single step shows a spinner for the whole rollout, and
 * steps are what the stock page can show while a canary waits.
 */

export const ROLLOUT_PLAN_ACTION_ID = 'model-manager:rollout:plan';
export const ROLLOUT_SUMMARY_ACTION_ID = 'model-manager:rollout:summary';

/** Names a list of targets, the first few in full. */
export function namesOf(targets: string[], max = 10): string {
  return targets.length > max
    ? `${targets.slice(0, max).join(', ')} and ${targets.length - max} more`
    : targets.join(', ');
}

/**
 * `model-manager:rollout:plan`: the rollout's first step. Reads the plan once (checkpointed), logs
 * it, and hands the canary targets and the rest to the next steps as outputs.
 */
export function createRolloutPlanAction(options: ModelManagerActionOptions) {
  const client = ModelManagerClient.create(options);
  return createTemplateAction({
    id: ROLLOUT_PLAN_ACTION_ID,
    description:
      'The first step of a rollout in steps: plans which targets of the runtime move (to a given version, or to what the catalog resolves now) and which stay and why, logs the plan (every field that changes, in a dry run), and outputs the canary targets and the rest for model-manager:rollout:canary and model-manager:rollout:batches. Applies nothing.',
    supportsDryRun: true,
    schema: {
      input: {
        runtime: rolloutInputs.runtime,
        version: z =>
          z
            .string()
            .optional()
            .describe(
              'A version of the runtime to move targets to (a key of its versions:). Leave it out to apply what the catalog resolves now, e.g. after moving default_version. Models pinned by server_version stay; held targets stay unless includeHeld',
            ),
        includeHeld: z =>
          z
            .boolean()
            .optional()
            .describe(
              'Move held targets too: those a rollout or a deploy request put on a version (default false)',
            ),
        cluster: rolloutInputs.cluster,
        namespace: rolloutInputs.namespace,
        canary: rolloutInputs.canary,
        dryRun: z =>
          z
            .boolean()
            .optional()
            .describe(
              'Log every field that would change, and say the plan is all that happens (default false)',
            ),
      },
      output: {
        summary: rolloutOutputs.summary,
        total: z => z.number().describe('How many targets move'),
        targets: z =>
          z
            .array(z.string())
            .describe('Every target that moves (would move), in order'),
        canary: z =>
          z
            .array(z.any())
            .describe(
              'The canary targets: input of model-manager:rollout:canary',
            ),
        rest: z =>
          z
            .array(z.any())
            .describe(
              'The targets after the canary: input of model-manager:rollout:batches',
            ),
        unchanged: rolloutOutputs.unchanged,
      },
    },
    async handler(ctx) {
      return userFacingErrors(
        options.logger,
        ROLLOUT_PLAN_ACTION_ID,
        async () => {
          const input = ctx.input;
          const dryRun = ctx.isDryRun || input.dryRun === true;
          const plan = await readPlan({
            client,
            credentials: await ctx.getInitiatorCredentials(),
            input,
            dryRun,
            checkpoint: taskCheckpoint(ctx),
          });
          logPlan(ctx.logger, plan, dryRun);
          const moves = plan.moves.map(withoutChanges);
          const canary = moves.slice(
            0,
            Math.min(input.canary ?? 1, moves.length),
          );
          const rest = moves.slice(canary.length);
          const targets = moves.map(targetLabel);
          const stays = `${plan.stays.length} stay as they are${
            plan.stays.length ? ' (the task log says why)' : ''
          }`;
          const summary = dryRun
            ? `would move ${moves.length} target(s)${
                moves.length ? `: ${namesOf(targets)}` : ''
              }; ${stays}. Nothing applied.`
            : `${moves.length} target(s) to move${
                canary.length
                  ? `: canary ${namesOf(canary.map(targetLabel))}, then ${
                      rest.length
                    } more`
                  : moves.length
                  ? ', no canary'
                  : ''
              }; ${stays}.`;
          ctx.logger.info(dryRun ? `dry run: ${summary}` : summary);
          ctx.output('summary', summary);
          ctx.output('total', moves.length);
          ctx.output('targets', targets);
          ctx.output('canary', canary);
          ctx.output('rest', rest);
          ctx.output('unchanged', staysOf(plan));
        },
      );
    },
  });
}

/**
 * `model-manager:rollout:summary`: the rollout's last step. Says which moved targets KServe
 * reports Ready now, and why the others are not (moved is not serving).
 */
export function createRolloutSummaryAction(options: ModelManagerActionOptions) {
  const client = ModelManagerClient.create(options);
  return createTemplateAction({
    id: ROLLOUT_SUMMARY_ACTION_ID,
    description:
      'The last step of a rollout in steps: reads which moved targets KServe reports Ready now and why the others are not, and says how many of the planned targets moved.',
    supportsDryRun: true,
    schema: {
      input: {
        runtime: rolloutInputs.runtime,
        moved: z =>
          z
            .array(z.union([z.string(), z.array(z.string())]))
            .describe(
              'The moved targets: the moved outputs of the canary and batches steps (lists are joined)',
            ),
        total: rolloutInputs.total,
      },
      output: {
        summary: rolloutOutputs.summary,
        ready: z =>
          z.array(z.string()).describe('Moved targets KServe reports Ready'),
        notReady: z =>
          z
            .array(z.string())
            .describe(
              'Moved targets not Ready, each with its state and reason',
            ),
      },
    },
    async handler(ctx) {
      return userFacingErrors(
        options.logger,
        ROLLOUT_SUMMARY_ACTION_ID,
        async () => {
          const moved = ctx.input.moved.flat();
          const readiness = await reportReadiness({
            client,
            credentials: await ctx.getInitiatorCredentials(),
            runtime: ctx.input.runtime,
            moved,
            logger: ctx.logger,
          });
          ctx.output('ready', readiness.ready);
          ctx.output('notReady', readiness.notReady);
          ctx.output(
            'summary',
            moved.length ? readinessLine(readiness, moved) : 'Nothing moved.',
          );
          ctx.logger.info(
            `rollout done: moved ${moved.length} of ${
              ctx.input.total ?? moved.length
            } target(s)`,
          );
        },
      );
    },
  });
}
