import type {
  AuthService,
  DiscoveryService,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import {
  targetLabel,
  type RolloutPlan,
} from '@model-manager/plugin-model-manager-common';
import { ModelManagerClient } from '../client';
import { examples } from './rollout.examples';
import { defaultBatchSize, runRollout, type TargetOutcome } from './runRollout';
import { readinessOf } from './readinessOf';
import { userFacingErrors } from './userFacingErrors';
import { DEFAULT_READY_POLL_INTERVAL_MS } from './waitForReady';

export const ROLLOUT_ACTION_ID = 'model-manager:rollout';

/**
 * `model-manager:rollout`: moves every deployment target of a runtime to what the catalog resolves
 * now (after `default_version` moved) or to a given version, canary first, then the rest with
 * bounded concurrency, through the model-manager backend as the user who started the task.
 */
export function createRolloutAction(options: {
  discovery: DiscoveryService;
  auth: AuthService;
  /** The backend's logger: a failed task's full error, stack included, goes here (not to the task log). */
  logger?: LoggerService;
  readyPollIntervalMs?: number;
}) {
  const client = ModelManagerClient.create(options);
  return createTemplateAction({
    id: ROLLOUT_ACTION_ID,
    description:
      "Rolls a runtime version out across the fleet: every target of the runtime whose live objects differ from what would be applied now (or, with version, from that version for targets no pin holds). Canary targets first (waiting until Ready), then the rest with bounded concurrency; stops once failures pass maxFailures. Each target is a deploy as the task's initiator, recorded as a rollout. A scaffolder dry run logs the plan and applies nothing.",
    examples,
    supportsDryRun: true,
    schema: {
      input: {
        runtime: z =>
          z
            .string()
            .min(1)
            .describe(
              'The runtime: a key of runtimes: in models.yaml, such as vllm',
            ),
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
        cluster: z =>
          z.string().optional().describe('Only targets on this cluster'),
        namespace: z =>
          z.string().optional().describe('Only targets in this namespace'),
        canary: z =>
          z
            .number()
            .int()
            .min(0)
            .max(100)
            .optional()
            .describe(
              'How many targets go first, one at a time, each waiting until Ready (default 1)',
            ),
        concurrency: z =>
          z
            .number()
            .int()
            .min(1)
            .max(64)
            .optional()
            .describe(
              'How many targets are applied at once after the canary (default 4)',
            ),
        batchSize: z =>
          z
            .number()
            .int()
            .min(1)
            .max(200)
            .optional()
            .describe(
              'How many targets go to the backend in one request after the canary (default 12 per target at once, at least 50, at most 200); each batch is checkpointed',
            ),
        maxFailures: z =>
          z
            .number()
            .int()
            .min(0)
            .optional()
            .describe(
              'Stop starting new targets once more than this many have failed (default 0: stop at the first failure)',
            ),
        force: z =>
          z
            .boolean()
            .optional()
            .describe(
              'Take over fields someone changed outside model-manager (drift) instead of failing on the conflict (default false)',
            ),
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
        readyTimeoutSeconds: z =>
          z
            .number()
            .int()
            .min(1)
            .max(86_400)
            .optional()
            .describe(
              'How long to wait for a canary target to become Ready (default 900)',
            ),
      },
      output: {
        moved: z =>
          z
            .array(z.string())
            .describe('Targets moved, as model@cluster/namespace'),
        failed: z =>
          z
            .array(
              z.object({ target: z.string(), message: z.string().optional() }),
            )
            .describe('Targets that failed, with why'),
        notAttempted: z =>
          z
            .array(z.string())
            .describe('Targets not attempted because the rollout stopped'),
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
        unchanged: z =>
          z
            .array(
              z.object({
                target: z.string(),
                why: z.string(),
                reason: z.string(),
              }),
            )
            .describe('Targets the plan leaves as they are, and why'),
      },
    },
    async handler(ctx) {
      return userFacingErrors(options.logger, ROLLOUT_ACTION_ID, async () => {
        const input = ctx.input;
        const credentials = await ctx.getInitiatorCredentials();
        const query = {
          runtime: input.runtime,
          ...(input.version ? { version: input.version } : {}),
          ...(input.cluster ? { cluster: input.cluster } : {}),
          ...(input.namespace ? { namespace: input.namespace } : {}),
          ...(input.includeHeld ? { includeHeld: true } : {}),
        };
        const dryRun = ctx.isDryRun || input.dryRun === true;
        // The plan is kept: a resumed task works through the same targets in the same order. The
        // task state is written again at every checkpoint (and parsed on every read of the task),
        // so a real run keeps each move without its field changes and preflight checks (neither is
        // logged nor needed to apply it; at 1000 targets they were most of the state's size).
        const plan = (await ctx.checkpoint({
          key: `rollout-plan-${input.runtime}-${input.version ?? 'resolved'}${
            input.includeHeld ? '-held' : ''
          }`,
          fn: async () => {
            const full = await client.rolloutPlan(query, credentials);
            return (
              dryRun
                ? full
                : {
                    ...full,
                    moves: full.moves.map(
                      ({ changes: _, preflight: _checks, ...move }) => ({
                        ...move,
                        changes: [],
                      }),
                    ),
                  }
            ) as any;
          },
        })) as RolloutPlan;
        logPlan(ctx.logger, plan, dryRun);
        ctx.output(
          'unchanged',
          plan.stays.map(s => ({
            target: targetLabel(s),
            why: s.why,
            reason: s.reason,
          })),
        );
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
          client,
          credentials,
          runtime: input.runtime,
          version: input.version || undefined,
          rolloutId: ctx.task.id,
          moves: plan.moves,
          batchSize:
            input.batchSize ?? defaultBatchSize(input.concurrency ?? 4),
          canary: input.canary ?? 1,
          concurrency: input.concurrency ?? 4,
          maxFailures: input.maxFailures ?? 0,
          force: input.force === true,
          waitForCanary: input.waitForCanary !== false,
          readyTimeoutMs: (input.readyTimeoutSeconds ?? 900) * 1000,
          pollIntervalMs:
            options.readyPollIntervalMs ?? DEFAULT_READY_POLL_INTERVAL_MS,
          logger: ctx.logger,
          checkpoint: (key, fn) =>
            ctx.checkpoint({ key, fn: fn as any }) as any,
          signal: ctx.signal,
        });
        ctx.output(
          'moved',
          result.moved.map(o => o.target),
        );
        ctx.output(
          'failed',
          result.failed.map(o => ({
            target: o.target,
            ...(o.message ? { message: o.message } : {}),
          })),
        );
        ctx.output('notAttempted', result.notAttempted);
        // Moved is not serving: say which moved targets are Ready now (issue 26).
        const readiness = await readinessOf(
          client,
          credentials,
          input.runtime,
          result.moved.map(o => o.target),
        );
        ctx.output('ready', readiness.ready);
        ctx.output('notReady', readiness.notReady);
        if (result.moved.length > 0)
          ctx.logger.info(
            `Ready now: ${readiness.ready.length} of ${
              result.moved.length
            } moved${
              readiness.ready.length ? ` (${readiness.ready.join(', ')})` : ''
            }${
              readiness.notReady.length
                ? `; not Ready yet: ${readiness.notReady.join('; ')}`
                : ''
            }`,
          );
        const summary = `moved ${result.moved.length} of ${
          plan.moves.length
        } target(s)${
          result.failed.length
            ? `; failed: ${result.failed.map(describe).join('; ')}`
            : ''
        }${
          result.notAttempted.length
            ? `; not attempted: ${result.notAttempted.join(', ')}`
            : ''
        }`;
        const rollout = `rollout of ${input.runtime}${
          input.version ? ` ${input.version}` : ''
        }`;
        // The scaffolder (1.55, TaskWorker.runOneTask) ends every task whose step throws as
        // `failed`, a cancelled one too: the message says it was cancelled and what had moved.
        if (result.cancelled)
          throw new Error(
            `${rollout} cancelled: no target was started after the cancel. ${summary}`,
          );
        if (result.stopped)
          throw new Error(`${rollout} stopped: ${result.stopped}. ${summary}`);
        if (result.failed.length > 0)
          throw new Error(
            `${rollout} finished with failures: every target was attempted. ${summary}`,
          );
        ctx.logger.info(`rollout done: ${summary}`);
      });
    },
  });
}

function describe(o: TargetOutcome): string {
  return `${o.target} (${o.message ?? 'failed'})`;
}

/**
 * The plan in the task log: every target that moves with the fields that change (a dry run), or
 * how many move from which version to which (a real run, which then logs each target as it moves);
 * and every target that stays, and why.
 */
function logPlan(
  logger: { info(message: string): void },
  plan: RolloutPlan,
  detailed: boolean,
) {
  logger.info(
    `plan for runtime ${plan.runtime}${
      plan.version ? ` toward ${plan.version}` : ''
    }: ${plan.moves.length} target(s) to move, ${plan.stays.length} staying`,
  );
  if (!detailed) {
    const counts = new Map<string, number>();
    for (const m of plan.moves) {
      const step = m.toVersion
        ? `${m.fromVersion ?? '?'} -> ${m.toVersion}`
        : 'objects changed, same version';
      counts.set(step, (counts.get(step) ?? 0) + 1);
    }
    for (const [step, count] of counts)
      logger.info(`  move ${step}: ${count} target(s)`);
  }
  for (const m of detailed ? plan.moves : []) {
    const fields = m.changes.flatMap(c =>
      c.change === 'changed'
        ? c.fields.map(f => f.path)
        : [`${c.kind} ${c.name} ${c.change}`],
    );
    logger.info(
      `  move ${targetLabel(m)}${
        m.toVersion ? ` ${m.fromVersion ?? '?'} -> ${m.toVersion}` : ''
      }: ${fields.slice(0, 6).join(', ')}${
        fields.length > 6 ? `, and ${fields.length - 6} more` : ''
      }${m.releasesHold ? ` (releases: ${m.releasesHold.text})` : ''}`,
    );
  }
  for (const s of plan.stays)
    logger.info(`  stay ${targetLabel(s)}: ${s.reason}`);
  for (const e of plan.errors)
    logger.info(`  cluster ${e.cluster} could not be read: ${e.message}`);
}
