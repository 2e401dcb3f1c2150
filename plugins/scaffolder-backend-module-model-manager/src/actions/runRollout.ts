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
import { notReady, waitOne } from './waitCanaryReady';

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

/** Progress lines count targets over the whole rollout: `done/total`. */
export type Progress = { offset: number; total: number };

/** A canary target applied, with the revision its apply recorded (what the Ready wait waits for). */
export type AppliedTarget = {
  target: string;
  model: string;
  cluster: string;
  namespace: string;
  revision?: number;
};

/**
 * Rolls the planned targets forward: the canary targets first, one at a time, waiting until each
 * is Ready; then the rest in batches of `batchSize`, which the backend applies `concurrency` at a
 * time. Every apply is a deploy as the initiator (deploy permission, audit event, history row
 * recorded as a rollout with the rollout's id). Once failures pass `maxFailures` no new target
 * starts; the result says which targets moved, which failed and which were not attempted.
 *
 * Each batch is checkpointed, and the backend skips targets the rollout already applied, so a task
 * resumed after a restart (even one cut short inside a batch) applies no target twice. The
 * template's steps run the same phases one step each: {@link runCanary}, {@link waitCanaryReady},
 * {@link runBatches}.
 */
export async function runRollout(
  options: RolloutOptions,
): Promise<RolloutResult> {
  const { moves } = options;
  const progress = { offset: 0, total: moves.length };
  const canaryMoves = moves.slice(0, Math.min(options.canary, moves.length));
  const rest = moves.slice(canaryMoves.length);
  const first = await runCanary({ ...options, moves: canaryMoves, progress });
  if (first.stopped || first.cancelled) {
    first.notAttempted.push(...rest.map(targetLabel));
    return first;
  }
  const second = await runBatches({
    ...options,
    moves: rest,
    progress: { offset: canaryMoves.length, total: moves.length },
  });
  return {
    ...second,
    moved: [...first.moved, ...second.moved],
    failed: [...first.failed, ...second.failed],
  };
}

/**
 * Writes each target's outcome to the task log as `done/total target: moved ...`, a batch's lines
 * as one task log event (a batch's targets all finish within its request, and one event instead
 * of one per target saves the scaffolder a database row and a log line per target).
 */
function createRecorder(
  options: Pick<RolloutOptions, 'moves' | 'logger'>,
  progress: Progress,
  result: RolloutResult,
) {
  const { logger } = options;
  const byKey = new Map(options.moves.map(m => [targetLabel(m), m]));
  let done = progress.offset;
  let lines: string[] = [];
  const flush = () => {
    if (lines.length > 0) logger.info(lines.join('\n'));
    lines = [];
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
    const at = `${done}/${progress.total} ${target}`;
    if (item.outcome === 'applied')
      lines.push(`${at}: moved${versions} (revision ${outcome.revision})`);
    else if (item.outcome === 'already-applied')
      lines.push(
        `${at}: moved${versions} (revision ${outcome.revision}) before the task was interrupted; not applied again`,
      );
    else {
      flush();
      logger.error(`${at}: failed: ${outcome.message}`);
    }
    return outcome;
  };
  return { record, flush };
}

/** One request of a rollout's targets to the backend, checkpointed under `key`. */
function applyBatch(
  options: RolloutOptions,
  key: string,
  batch: RolloutMove[],
  maxFailures: number,
) {
  return options.checkpoint(key, () =>
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
}

/**
 * The canary phase: `moves` (the canary targets) one at a time, each waiting until Ready before
 * the next (with `waitForCanary`). With `waitForLast: false` the last one is applied and not
 * waited for: the template's next step ({@link waitCanaryReady}) waits for it, so the task page
 * shows "applied" and "waiting until Ready" as two steps. A canary that fails stops the rollout.
 * Checkpoint keys: `rollout-canary-<target>`.
 */
export async function runCanary(
  options: RolloutOptions & { progress: Progress; waitForLast?: boolean },
): Promise<RolloutResult & { applied: AppliedTarget[] }> {
  const { moves, logger } = options;
  const result = {
    moved: [],
    failed: [],
    notAttempted: [],
    applied: [],
  } as RolloutResult & { applied: AppliedTarget[] };
  const { record, flush } = createRecorder(options, options.progress, result);
  if (moves.length > 0)
    logger.info(`canary: ${moves.map(targetLabel).join(', ')}`);
  for (const [index, move] of moves.entries()) {
    if (options.signal?.aborted) {
      result.cancelled = true;
      result.notAttempted = moves.slice(index).map(targetLabel);
      return result;
    }
    const { items } = await applyBatch(
      options,
      `rollout-canary-${targetLabel(move)}`,
      [move],
      0,
    );
    const outcome = record(items[0]);
    flush();
    if (outcome.ok) result.applied.push(appliedTarget(move, outcome));
    const last = index === moves.length - 1;
    if (
      outcome.ok &&
      options.waitForCanary &&
      (!last || options.waitForLast !== false)
    ) {
      const waited = await waitOne(options, move, outcome.revision);
      if (waited === 'cancelled') {
        result.cancelled = true;
        result.notAttempted = moves.slice(index + 1).map(targetLabel);
        return result;
      }
      if (waited) notReady(result, outcome, waited, logger);
    }
    if (!outcome.ok) {
      result.stopped = `canary ${outcome.target} failed; the rest was not attempted`;
      result.notAttempted = moves.slice(index + 1).map(targetLabel);
      return result;
    }
  }
  return result;
}

/**
 * The batch phase: `moves` (the targets after the canary) in batches of `batchSize`, which the
 * backend applies `concurrency` at a time; once failures pass `maxFailures` no new batch starts.
 * Checkpoint keys: `rollout-batch-<start>-<size>`.
 */
export async function runBatches(
  options: RolloutOptions & { progress: Progress },
): Promise<RolloutResult> {
  const rest = options.moves;
  const result: RolloutResult = { moved: [], failed: [], notAttempted: [] };
  const { record, flush } = createRecorder(options, options.progress, result);
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
    const { items } = await applyBatch(
      options,
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

function appliedTarget(
  move: RolloutMove,
  outcome: TargetOutcome,
): AppliedTarget {
  return {
    target: outcome.target,
    model: move.model,
    cluster: move.cluster,
    namespace: move.namespace,
    ...(outcome.revision !== undefined ? { revision: outcome.revision } : {}),
  };
}
