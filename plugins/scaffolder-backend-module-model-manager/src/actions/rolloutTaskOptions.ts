import type { ActionContext } from '@backstage/plugin-scaffolder-node';
import type { ModelManagerClient } from '../client';
import type { RolloutOptions } from './runRollout';
import { DEFAULT_READY_POLL_INTERVAL_MS } from './waitForReady';

/** What a rollout action's task gives every rollout phase. */
type RolloutTask = Pick<
  ActionContext<{ runtime: string; version?: string }>,
  | 'input'
  | 'task'
  | 'logger'
  | 'signal'
  | 'checkpoint'
  | 'getInitiatorCredentials'
>;

/**
 * The task's checkpoint as the rollout code calls it (`RolloutOptions['checkpoint']`, generic over
 * any answer). The scaffolder stores a checkpoint's answer as JSON and so takes only
 * `T extends JsonValue | void` (ActionContext of plugin-scaffolder-node), hence the casts; what is
 * checkpointed through it (a plan, a `POST /rollouts/apply` answer) is JSON.
 */
export function taskCheckpoint(
  ctx: Pick<RolloutTask, 'checkpoint'>,
): RolloutOptions['checkpoint'] {
  return <T>(key: string, fn: () => Promise<T>) =>
    ctx.checkpoint({ key, fn: fn as any }) as Promise<T>;
}

/**
 * The options of `runRollout` and its phases that every rollout action takes from its task
 * alike: the initiator's credentials (each apply is theirs), the task id as the rollout's id (the
 * backend applies a target once per rollout id, so a resumed task applies nothing twice), the
 * task's logger, checkpoints and cancel signal, and how often a Ready wait asks for the status.
 */
export async function rolloutTaskOptions(
  ctx: RolloutTask,
  client: ModelManagerClient,
  options: { readyPollIntervalMs?: number },
): Promise<
  Pick<
    RolloutOptions,
    | 'client'
    | 'credentials'
    | 'runtime'
    | 'version'
    | 'rolloutId'
    | 'pollIntervalMs'
    | 'logger'
    | 'checkpoint'
    | 'signal'
  >
> {
  return {
    client,
    credentials: await ctx.getInitiatorCredentials(),
    runtime: ctx.input.runtime,
    // A blank version (an empty form field) asks for what the catalog resolves now.
    version: ctx.input.version || undefined,
    rolloutId: ctx.task.id,
    pollIntervalMs:
      options.readyPollIntervalMs ?? DEFAULT_READY_POLL_INTERVAL_MS,
    logger: ctx.logger,
    checkpoint: taskCheckpoint(ctx),
    signal: ctx.signal,
  };
}
