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
import { formatDiagnosis } from '@model-manager/plugin-model-manager-common';
import type { DeployTarget, ModelManagerClient, ModelStatus } from '../client';

/** The weights download Job failed: waiting longer will not make the model Ready. */
export class DownloadFailedError extends Error {
  name = 'DownloadFailedError';
}

/** How often the deploy action asks for the model's status while it waits for Ready. */
export const DEFAULT_READY_POLL_INTERVAL_MS = 5_000;

/** How long a wait for Ready lasts when the task leaves `readyTimeoutSeconds` out. */
const DEFAULT_READY_TIMEOUT_SECONDS = 900;

/** A task's `readyTimeoutSeconds` input as the `timeoutMs` of {@link waitForReady}. */
export function readyTimeoutMs(seconds: number | undefined): number {
  return (seconds ?? DEFAULT_READY_TIMEOUT_SECONDS) * 1000;
}

/** How long a wait goes without a line in the task log: a line says it still waits, and why. */
export const READY_HEARTBEAT_MS = 60_000;

/** A wait's length in the task log's words: `90 s`, `15 min`. */
export function formatWait(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}

/** What the model's status says, in one line, for the task log and the timeout error. */
export function describeStatus(status: ModelStatus | undefined): string {
  if (!status) return 'no successful deploy is on record there yet';
  if (status.error) return `its status could not be read: ${status.error}`;
  if (!status.found)
    return "the model's InferenceService or LLMInferenceService is not on the cluster (deleted since?)";
  const problems = status.summary?.problems ?? [];
  return problems.length > 0 ? problems.join(' ') : 'not Ready yet';
}

/**
 * The weights download's state as one log line, and the key that says whether it is new: the
 * phase and the reason (a pending pod that goes from Unschedulable to ImagePullBackOff is news).
 */
export function describeDownload(
  download: ModelStatus['download'],
): { key: string; line: string } | undefined {
  if (!download) return undefined;
  const job = `Job ${download.namespace}/${download.name}`;
  if (download.error)
    return {
      key: 'error',
      line: `weights download (${job}): its status could not be read: ${download.error}`,
    };
  if (!download.found || !download.progress)
    return {
      key: 'absent',
      line: `weights download (${job}): the Job is not on the cluster (it is removed a day after it finishes)`,
    };
  const { phase, reason, message } = download.progress;
  return {
    key: `${phase}/${reason ?? ''}`,
    line: `weights download (${job}): ${phase}${
      reason ? ` (${reason})` : ''
    }: ${message}`,
  };
}

/**
 * Waits until KServe reports the model Ready on the target, asking the model-manager backend for
 * its status every `pollIntervalMs`. Logs each new state once, and for models with a weights
 * download Job each new state of the download (pending, running, failed, complete, with the pod's
 * reason); when nothing changed for a minute, a line says it still waits (how long so far, of how
 * long) and why. Errors that will not go away by waiting (no permission, unknown model, a failed
 * download: the Job has given up) end the wait at once; others are logged and retried until the
 * timeout, which fails with the last state seen. The objects stay applied either way.
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
  /**
   * Follows the backend's pushed fleet changes (`ModelManagerClient.watchFleet`): a change on the
   * target's cluster asks for the status at once instead of at the next poll. The poll stays, for
   * a backend without a watch cache and for what a watch does not see (the download's pods).
   */
  watch?: (onChange: (clusters: string[]) => void) => () => void;
}): Promise<ModelStatus> {
  const { client, model, target, logger, signal } = options;
  let wake: (() => void) | undefined;
  const stopWatching = options.watch?.(clusters => {
    if (clusters.includes(target.cluster)) wake?.();
  });
  try {
    return await waitLoop();
  } finally {
    stopWatching?.();
  }

  /** Until `ms` have passed or the target's cluster changed, whichever is first. */
  function pause(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const held: {
        timer?: ReturnType<typeof setTimeout>;
        onAbort?: () => void;
      } = {};
      const done = () => {
        clearTimeout(held.timer);
        if (held.onAbort) signal?.removeEventListener('abort', held.onAbort);
        wake = undefined;
        resolve();
      };
      const onAbort = () => {
        done();
        reject(signal!.reason);
      };
      held.onAbort = onAbort;
      held.timer = setTimeout(done, ms);
      wake = done;
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  async function waitLoop(): Promise<ModelStatus> {
    const where = `cluster ${target.cluster}, namespace ${target.namespace}`;
    const start = Date.now();
    const deadline = start + options.timeoutMs;
    let lastReport: string | undefined;
    let lastLineAt = start;
    let lastDownload: string | undefined;
    let lastStatus: ModelStatus | undefined;
    for (;;) {
      signal?.throwIfAborted();
      let report: string;
      try {
        const status = await client.status(model, target, options.credentials);
        lastStatus = status;
        const download = describeDownload(status?.download);
        if (download && download.key !== lastDownload) {
          lastDownload = download.key;
          if (status?.download?.progress?.phase === 'failed') {
            logger.warn(download.line);
            throw new DownloadFailedError(
              `model ${model} was applied (revision ${options.revision}) but its weights download failed on ${where}: ${status.download.progress.message} The objects stay applied; a failed Job never runs again, so delete Job ${status.download.namespace}/${status.download.name} and deploy again once the cause is fixed.`,
            );
          }
          logger.info(download.line);
        }
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
          e instanceof DownloadFailedError ||
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
      const now = Date.now();
      if (report !== lastReport) {
        // The first line says how long it waits; a later one, each new state.
        lastLineAt = now;
        logger.info(
          `waiting for model ${model} to become Ready on ${where}: ${report}${
            lastReport === undefined
              ? ` (it waits up to ${formatWait(options.timeoutMs)})`
              : ''
          }`,
        );
        lastReport = report;
      } else if (now - lastLineAt >= READY_HEARTBEAT_MS) {
        // Nothing new for a while: the log says it still waits, so a quiet task is not a hung one.
        lastLineAt = now;
        logger.info(
          `still waiting for model ${model} on ${where} (${formatWait(
            now - start,
          )} of ${formatWait(options.timeoutMs)}): ${report}`,
        );
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        // Why it is not Ready, in words (the backend's diagnosis of the target), before the error.
        const diagnosis = lastStatus?.diagnosis;
        if (diagnosis)
          for (const line of formatDiagnosis(diagnosis)) logger.warn(line);
        if (diagnosis?.findings.length)
          report = `${diagnosis.headline}; fix: ${diagnosis.findings[0].fix}.`;
        throw new Error(
          `model ${model} was applied (revision ${
            options.revision
          }) but is not Ready on ${where} after ${Math.round(
            options.timeoutMs / 1000,
          )} s: ${report} The objects stay applied; its Kubernetes tab shows what KServe reports.`,
        );
      }
      await pause(Math.min(options.pollIntervalMs, left));
    }
  }
}
