import { waitForReady } from './waitForReady';
import type {
  AppliedTarget,
  RolloutOptions,
  RolloutResult,
  TargetOutcome,
} from './runRollout';

/** What a wait until Ready reads of the rollout's options. */
type WaitOptions = Pick<
  RolloutOptions,
  | 'client'
  | 'credentials'
  | 'readyTimeoutMs'
  | 'pollIntervalMs'
  | 'logger'
  | 'signal'
>;

/**
 * The wait of the canary phase as a step of its own: waits until each applied canary target is
 * Ready (one at a time; those Ready already answer at once). A target that does not become Ready
 * in time fails the canary and stops the rollout.
 */
export async function waitCanaryReady(
  options: WaitOptions & { applied: AppliedTarget[] },
): Promise<RolloutResult & { ready: string[] }> {
  const result: RolloutResult & { ready: string[] } = {
    moved: [],
    failed: [],
    notAttempted: [],
    ready: [],
  };
  for (const [index, target] of options.applied.entries()) {
    const outcome: TargetOutcome = {
      target: target.target,
      ok: true,
      ...(target.revision !== undefined ? { revision: target.revision } : {}),
    };
    const waited = await waitOne(options, target, target.revision);
    if (waited === 'cancelled') {
      result.cancelled = true;
      result.notAttempted = options.applied.slice(index).map(t => t.target);
      return result;
    }
    if (waited) {
      notReady(result, outcome, waited, options.logger);
      result.stopped = `canary ${target.target} failed; the rest was not attempted`;
      return result;
    }
    result.moved.push(outcome);
    result.ready.push(target.target);
  }
  return result;
}

/**
 * Waits until the target is Ready: undefined when it is, `'cancelled'` when the task was
 * cancelled meanwhile, else why it is not Ready.
 */
export async function waitOne(
  options: WaitOptions,
  target: { model: string; cluster: string; namespace: string },
  revision: number | undefined,
): Promise<string | undefined> {
  try {
    await waitForReady({
      client: options.client,
      model: target.model,
      target: { cluster: target.cluster, namespace: target.namespace },
      credentials: options.credentials,
      revision,
      timeoutMs: options.readyTimeoutMs,
      pollIntervalMs: options.pollIntervalMs,
      logger: options.logger,
      signal: options.signal,
      watch: onChange =>
        options.client.watchFleet(options.credentials, onChange),
    });
    return undefined;
  } catch (e) {
    // Cancelled while waiting: the canary was applied, nothing else is started.
    if (options.signal?.aborted) return 'cancelled';
    return (e as Error).message;
  }
}

/** Applied, but it did not become Ready: the canary failed. */
export function notReady(
  result: RolloutResult,
  outcome: TargetOutcome,
  why: string,
  logger: RolloutOptions['logger'],
) {
  const at = result.moved.indexOf(outcome);
  if (at >= 0) result.moved.splice(at, 1);
  outcome.ok = false;
  outcome.message = `canary applied (revision ${outcome.revision}) but not Ready: ${why}`;
  if (!result.failed.includes(outcome)) result.failed.push(outcome);
  logger.error(`${outcome.target}: ${outcome.message}`);
}
