import type {
  BackstageCredentials,
  LoggerService,
} from '@backstage/backend-plugin-api';
import type { ModelManagerClient } from '../client';
import { readinessOf, type Readiness } from './readinessOf';
import type { RolloutResult, TargetOutcome } from './runRollout';

/** `rollout of vllm 0.19.1`: how errors name the rollout. */
export function rolloutName(runtime: string, version?: string): string {
  return `rollout of ${runtime}${version ? ` ${version}` : ''}`;
}

/** `moved 2 of 8 target(s); failed: a (why); not attempted: b, c`. */
export function summarize(result: RolloutResult, planned: number): string {
  return `moved ${result.moved.length} of ${planned} target(s)${
    result.failed.length
      ? `; failed: ${result.failed.map(describe).join('; ')}`
      : ''
  }${
    result.notAttempted.length
      ? `; not attempted: ${result.notAttempted.join(', ')}`
      : ''
  }`;
}

function describe(o: TargetOutcome): string {
  return `${o.target} (${o.message ?? 'failed'})`;
}

/** The `failed` output: each failed target with why. */
export function failedOutput(result: RolloutResult) {
  return result.failed.map(o => ({
    target: o.target,
    ...(o.message ? { message: o.message } : {}),
  }));
}

/**
 * Ends a rollout (or a phase of it) that did not move everything as a failed step, saying why and
 * what had moved. The scaffolder (1.55, TaskWorker.runOneTask) ends every task whose step throws
 * as `failed`, a cancelled one too: the message says it was cancelled and what had moved.
 */
export function throwIfUnfinished(
  rollout: string,
  result: RolloutResult,
  summary: string,
) {
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
}

/**
 * Moved is not serving: reads which moved targets KServe reports Ready now and logs it by target
 * (issue 26): `Ready now: 1 of 3 moved (a); not Ready yet: b (NotReady: ...); c (...)`.
 */
export async function reportReadiness(options: {
  client: ModelManagerClient;
  credentials: BackstageCredentials;
  runtime: string;
  moved: string[];
  logger: Pick<LoggerService, 'info'>;
}): Promise<Readiness> {
  const { moved } = options;
  const readiness = await readinessOf(
    options.client,
    options.credentials,
    options.runtime,
    moved,
  );
  if (moved.length > 0) options.logger.info(readinessLine(readiness, moved));
  return readiness;
}

/** `Ready now: 1 of 3 moved (a); not Ready yet: b (NotReady: ...)`. */
export function readinessLine(readiness: Readiness, moved: string[]): string {
  return `Ready now: ${readiness.ready.length} of ${moved.length} moved${
    readiness.ready.length ? ` (${readiness.ready.join(', ')})` : ''
  }${
    readiness.notReady.length
      ? `; not Ready yet: ${readiness.notReady.join('; ')}`
      : ''
  }`;
}
