import type {
  BackstageCredentials,
  LoggerService,
} from '@backstage/backend-plugin-api';
import {
  targetLabel,
  type RolloutMove,
} from '@model-manager/plugin-model-manager-common';
import {
  DeploymentFailedError,
  type ModelManagerClient,
  type DeploymentResult,
} from '../client';
import { waitForReady } from './waitForReady';

/** What happened to one target of a rollout (stored in its checkpoint). */
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
  moves: RolloutMove[];
  /** How many targets go first, alone, and must become Ready before the rest (default 1). */
  canary: number;
  /** How many targets are applied at once after the canary (default 4). */
  concurrency: number;
  /** The rollout stops once more targets than this have failed (default 0). */
  maxFailures: number;
  force: boolean;
  /** Wait for the canary targets to be Ready before going on. */
  waitForCanary: boolean;
  readyTimeoutMs: number;
  pollIntervalMs: number;
  logger: Pick<LoggerService, 'info' | 'warn' | 'error'>;
  /** The scaffolder's checkpoint: a resumed task gets the stored outcome, never applies again. */
  checkpoint: <T>(key: string, fn: () => Promise<T>) => Promise<T>;
  signal?: AbortSignal;
}

export type RolloutResult = {
  moved: TargetOutcome[];
  failed: TargetOutcome[];
  /** Targets not attempted because the rollout stopped. */
  notAttempted: string[];
  /** Why it stopped early, if it did. */
  stopped?: string;
};

/**
 * Rolls the planned targets forward: the canary targets first, one at a time, waiting until each
 * is Ready; then the rest with bounded concurrency. Every apply is a deploy through the
 * model-manager backend as the initiator (deploy permission, audit event, history row recorded as
 * a rollout). Once failures pass `maxFailures` no new target starts; the result says which targets
 * moved, which failed and which were not attempted. Each target is checkpointed.
 */
export async function runRollout(options: RolloutOptions): Promise<RolloutResult> {
  const { moves, logger } = options;
  const total = moves.length;
  const result: RolloutResult = { moved: [], failed: [], notAttempted: [] };
  let done = 0;
  const record = (outcome: TargetOutcome) => {
    done++;
    (outcome.ok ? result.moved : result.failed).push(outcome);
    const versions = outcome.toVersion ? ` ${outcome.fromVersion ?? '?'} -> ${outcome.toVersion}` : '';
    if (outcome.ok) logger.info(`${done}/${total} ${outcome.target}: moved${versions} (revision ${outcome.revision})`);
    else logger.error(`${done}/${total} ${outcome.target}: failed: ${outcome.message}`);
  };
  const tooMany = () => result.failed.length > options.maxFailures;

  const canary = moves.slice(0, Math.min(options.canary, total));
  const rest = moves.slice(canary.length);
  if (canary.length > 0) logger.info(`canary: ${canary.map(targetLabel).join(', ')}`);
  for (const move of canary) {
    const outcome = await applyTarget(options, move);
    record(outcome);
    if (outcome.ok && options.waitForCanary) {
      try {
        options.signal?.throwIfAborted();
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
        });
      } catch (e) {
        // Applied, but it did not become Ready: the canary failed.
        result.moved.splice(result.moved.indexOf(outcome), 1);
        outcome.ok = false;
        outcome.message = `canary applied (revision ${outcome.revision}) but not Ready: ${(e as Error).message}`;
        result.failed.push(outcome);
        logger.error(`${outcome.target}: ${outcome.message}`);
      }
    }
    if (!outcome.ok) {
      result.stopped = `canary ${outcome.target} failed; the rest was not attempted`;
      result.notAttempted = moves.slice(moves.indexOf(move) + 1).map(targetLabel);
      return result;
    }
  }

  // The rest: `concurrency` workers take targets in plan order until failures pass the threshold.
  let next = 0;
  const worker = async () => {
    while (next < rest.length && !tooMany()) {
      options.signal?.throwIfAborted();
      const move = rest[next++];
      record(await applyTarget(options, move));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, rest.length)) }, worker));
  result.notAttempted = rest.slice(next).map(targetLabel);
  if (tooMany()) {
    result.stopped = `${result.failed.length} target(s) failed, more than maxFailures (${options.maxFailures}); no new target was started`;
  }
  return result;
}

async function applyTarget(options: RolloutOptions, move: RolloutMove): Promise<TargetOutcome> {
  const target = targetLabel(move);
  const header = { target, ...(move.fromVersion ? { fromVersion: move.fromVersion } : {}), ...(move.toVersion ? { toVersion: move.toVersion } : {}) };
  return options.checkpoint(`rollout-${target}`, async () => {
    try {
      const deployed: DeploymentResult = await options.client.deploy(
        move.model,
        {
          cluster: move.cluster,
          namespace: move.namespace,
          ...move.overrides,
          force: options.force,
          rollout: { runtime: options.runtime, ...(options.version ? { version: options.version } : {}) },
        },
        options.credentials,
      );
      return { ...header, ok: true, ...(deployed.revision !== undefined ? { revision: deployed.revision } : {}) };
    } catch (e) {
      const message = e instanceof DeploymentFailedError ? e.deployment.message ?? e.message : (e as Error).message;
      return { ...header, ok: false, message };
    }
  });
}
