import type {
  BackstageCredentials,
  LoggerService,
} from '@backstage/backend-plugin-api';
import {
  targetLabel,
  type RolloutMove,
  type RolloutTargetResult,
} from '@model-manager/plugin-model-manager-common';
import type { ModelManagerClient } from '../client';
import { waitForReady } from './waitForReady';

/**
 * How many targets go to the backend in one request when the task does not say: twelve rounds of
 * `concurrency`, at least 50 and at most 200 (the most `POST /rollouts/apply` takes). A batch ends
 * when its slowest target does, so until the next batch starts fewer than `concurrency` targets
 * are in flight; with many rounds per batch that tail is a small part of it. Measured with
 * `bench/fleet.js` (docs/performance.md), one run: 1,000 targets at 16 at once, batches of 192 instead of 50
 * took 3.6 s instead of 3.8 s.
 */
export function defaultBatchSize(concurrency: number): number {
  return Math.min(200, Math.max(50, concurrency * 12));
}

/** What happened to one target of a rollout. */
export type TargetOutcome = {
  target: string;
  ok: boolean;
  revision?: number;
  fromVersion?: string;
  toVersion?: string;
  message?: string;
};

export interface RolloutOptions {
  client: ModelManagerClient;
  credentials: BackstageCredentials;
  runtime: string;
  version?: string;
  /** The rollout's id (the scaffolder task id): the backend never applies a target twice for it. */
  rolloutId: string;
  moves: RolloutMove[];
  /** How many targets go first, alone, and must become Ready before the rest (default 1). */
  canary: number;
  /** How many targets the backend applies at once after the canary (default 4). */
  concurrency: number;
  /** How many targets go to the backend in one request after the canary (see {@link defaultBatchSize}). */
  batchSize: number;
  /** The rollout stops once more targets than this have failed (default 0). */
  maxFailures: number;
  force: boolean;
  /** Wait for the canary targets to be Ready before going on. */
  waitForCanary: boolean;
  readyTimeoutMs: number;
  pollIntervalMs: number;
  logger: Pick<LoggerService, 'info' | 'warn' | 'error'>;
  /** The scaffolder's checkpoint: a resumed task gets the stored answer of a batch. */
  checkpoint: <T>(key: string, fn: () => Promise<T>) => Promise<T>;
  signal?: AbortSignal;
}

export type RolloutResult = {
  moved: TargetOutcome[];
  failed: TargetOutcome[];
  /** Targets not attempted because the rollout stopped. */
  notAttempted: string[];
  /** Why it stopped before attempting every target, if it did. */
  stopped?: string;
  /** The task was cancelled: no new target was started after that. */
  cancelled?: boolean;
};

/**
 * Rolls the planned targets forward: the canary targets first, one at a time, waiting until each
 * is Ready; then the rest in batches of `batchSize`, which the backend applies `concurrency` at a
 * time. Every apply is a deploy as the initiator (deploy permission, audit event, history row
 * recorded as a rollout with the rollout's id). Once failures pass `maxFailures` no new target
 * starts; the result says which targets moved, which failed and which were not attempted.
 *
 * Each batch is checkpointed, and the backend skips targets the rollout already applied, so a task
 * resumed after a restart (even one cut short inside a batch) applies no target twice.
 */
export async function runRollout(
  options: RolloutOptions,
): Promise<RolloutResult> {
  const { moves, logger } = options;
  const total = moves.length;
  const result: RolloutResult = { moved: [], failed: [], notAttempted: [] };
  const byKey = new Map(moves.map(m => [targetLabel(m), m]));
  let done = 0;
  // Progress lines of one batch, written as one task log event when the batch is done: a batch's
  // targets all finish within its request, and one event instead of one per target saves the
  // scaffolder a database row and a log line per target. The task log reads the same.
  let progress: string[] = [];
  const flush = () => {
    if (progress.length > 0) logger.info(progress.join('\n'));
    progress = [];
  };
  const record = (item: RolloutTargetResult): TargetOutcome => {
    const target = targetLabel(item);
    const move = byKey.get(target);
    const outcome: TargetOutcome = {
      target,
      ok: item.outcome === 'applied' || item.outcome === 'already-applied',
      ...(item.revision !== undefined ? { revision: item.revision } : {}),
      ...(move?.fromVersion ? { fromVersion: move.fromVersion } : {}),
      ...(move?.toVersion ? { toVersion: move.toVersion } : {}),
      ...(item.message ? { message: item.message } : {}),
    };
    done++;
    (outcome.ok ? result.moved : result.failed).push(outcome);
    const versions = outcome.toVersion
      ? ` ${outcome.fromVersion ?? '?'} -> ${outcome.toVersion}`
      : '';
    if (item.outcome === 'applied')
      progress.push(
        `${done}/${total} ${target}: moved${versions} (revision ${outcome.revision})`,
      );
    else if (item.outcome === 'already-applied')
      progress.push(
        `${done}/${total} ${target}: moved${versions} (revision ${outcome.revision}) before the task was interrupted; not applied again`,
      );
    else {
      flush();
      logger.error(`${done}/${total} ${target}: failed: ${outcome.message}`);
    }
    return outcome;
  };
  const apply = (key: string, batch: RolloutMove[], maxFailures: number) =>
    options.checkpoint(key, () =>
      options.client.rolloutApply(
        {
          runtime: options.runtime,
          ...(options.version ? { version: options.version } : {}),
          rolloutId: options.rolloutId,
          targets: batch.map(m => ({
            model: m.model,
            cluster: m.cluster,
            namespace: m.namespace,
            overrides: m.overrides,
          })),
          concurrency: options.concurrency,
          maxFailures,
          force: options.force,
        },
        options.credentials,
      ),
    );

  const canary = moves.slice(0, Math.min(options.canary, total));
  if (canary.length > 0)
    logger.info(`canary: ${canary.map(targetLabel).join(', ')}`);
  for (const [index, move] of canary.entries()) {
    if (options.signal?.aborted) {
      result.cancelled = true;
      result.notAttempted = moves.slice(index).map(targetLabel);
      return result;
    }
    const { items } = await apply(
      `rollout-canary-${targetLabel(move)}`,
      [move],
      0,
    );
    const outcome = record(items[0]);
    flush();
    if (outcome.ok && options.waitForCanary) {
      try {
        await waitForReady({
          client: options.client,
          model: move.model,
          target: { cluster: move.cluster, namespace: move.namespace },
          credentials: options.credentials,
          revision: outcome.revision,
          timeoutMs: options.readyTimeoutMs,
          pollIntervalMs: options.pollIntervalMs,
          logger,
          signal: options.signal,
          watch: onChange =>
            options.client.watchFleet(options.credentials, onChange),
        });
      } catch (e) {
        // Cancelled while waiting: the canary was applied, nothing else is started.
        if (options.signal?.aborted) {
          result.cancelled = true;
          result.notAttempted = moves.slice(index + 1).map(targetLabel);
          return result;
        }
        // Applied, but it did not become Ready: the canary failed.
        result.moved.splice(result.moved.indexOf(outcome), 1);
        outcome.ok = false;
        outcome.message = `canary applied (revision ${
          outcome.revision
        }) but not Ready: ${(e as Error).message}`;
        result.failed.push(outcome);
        logger.error(`${outcome.target}: ${outcome.message}`);
      }
    }
    if (!outcome.ok) {
      result.stopped = `canary ${outcome.target} failed; the rest was not attempted`;
      result.notAttempted = moves.slice(index + 1).map(targetLabel);
      return result;
    }
  }

  const rest = moves.slice(canary.length);
  const size = Math.max(1, options.batchSize);
  for (let start = 0; start < rest.length; start += size) {
    const allowance = options.maxFailures - result.failed.length;
    if (allowance < 0) {
      result.notAttempted.push(...rest.slice(start).map(targetLabel));
      break;
    }
    if (options.signal?.aborted) {
      result.cancelled = true;
      result.notAttempted.push(...rest.slice(start).map(targetLabel));
      break;
    }
    const { items } = await apply(
      `rollout-batch-${start}-${size}`,
      rest.slice(start, start + size),
      allowance,
    );
    for (const item of items) {
      if (item.outcome === 'not-attempted')
        result.notAttempted.push(targetLabel(item));
      else record(item);
    }
    flush();
  }
  // Stopped only when some target was left out: a failure in the last batch stops nothing.
  if (
    result.failed.length > options.maxFailures &&
    result.notAttempted.length > 0 &&
    !result.cancelled
  ) {
    result.stopped = `${result.failed.length} target(s) failed, more than maxFailures (${options.maxFailures}); no new target was started`;
  }
  return result;
}
