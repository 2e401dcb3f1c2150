import type {
  BackstageCredentials,
  LoggerService,
} from '@backstage/backend-plugin-api';
import {
  AuthenticationError,
  InputError,
  NotAllowedError,
  NotFoundError,
} from '@backstage/errors';
import { setTimeout as delay } from 'node:timers/promises';
import type { DeployTarget, ModelManagerClient, ModelStatus } from '../client';

/** How often the deploy action asks for the model's status while it waits for Ready. */
export const DEFAULT_READY_POLL_INTERVAL_MS = 5_000;

/** What the model's status says, in one line, for the task log and the timeout error. */
export function describeStatus(status: ModelStatus | undefined): string {
  if (!status)
    return 'no successful deploy is on record there yet';
  if (status.error) return `its status could not be read: ${status.error}`;
  if (!status.found)
    return "the model's InferenceService or LLMInferenceService is not on the cluster (deleted since?)";
  const problems = status.summary?.problems ?? [];
  return problems.length > 0 ? problems.join(' ') : 'not Ready yet';
}

/**
 * Waits until KServe reports the model Ready on the target, asking the model-manager backend for
 * its status every `pollIntervalMs`. Logs each new state once. Errors that will not go away by
 * waiting (no permission, unknown model) end the wait at once; others are logged and retried
 * until the timeout, which fails with the last state seen. The objects stay applied either way.
 */
export async function waitForReady(options: {
  client: ModelManagerClient;
  model: string;
  target: DeployTarget;
  credentials: BackstageCredentials;
  revision?: number;
  timeoutMs: number;
  pollIntervalMs: number;
  logger: Pick<LoggerService, 'info' | 'warn'>;
  signal?: AbortSignal;
}): Promise<ModelStatus> {
  const { client, model, target, logger, signal } = options;
  const where = `cluster ${target.cluster}, namespace ${target.namespace}`;
  const deadline = Date.now() + options.timeoutMs;
  let lastReport: string | undefined;
  for (;;) {
    signal?.throwIfAborted();
    let report: string;
    try {
      const status = await client.status(model, target, options.credentials);
      if (status?.found && status.summary?.ready === true) {
        logger.info(
          `model ${model} is Ready on ${where}${
            status.summary.url ? `: ${status.summary.url}` : ''
          }`,
        );
        return status;
      }
      report = describeStatus(status);
    } catch (e) {
      if (
        e instanceof NotAllowedError ||
        e instanceof AuthenticationError ||
        e instanceof NotFoundError ||
        e instanceof InputError
      )
        throw e;
      report = `the model-manager backend did not answer: ${
        (e as Error).message
      }`;
    }
    if (report !== lastReport) {
      logger.info(`waiting for model ${model} to become Ready on ${where}: ${report}`);
      lastReport = report;
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new Error(
        `model ${model} was applied (revision ${options.revision}) but is not Ready on ${where} after ${Math.round(
          options.timeoutMs / 1000,
        )} s: ${report} The objects stay applied; its Kubernetes tab shows what KServe reports.`,
      );
    }
    await delay(Math.min(options.pollIntervalMs, left), undefined, { signal });
  }
}
