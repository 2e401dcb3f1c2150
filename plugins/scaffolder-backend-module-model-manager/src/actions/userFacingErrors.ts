import type { LoggerService } from '@backstage/backend-plugin-api';
import { markdownText } from '@model-manager/plugin-model-manager-common';

/**
 * Runs an action's handler so that a failure shows the user its message only. The scaffolder
 * writes a failed step's `error.stack` into the task log the user reads; a Node stack names server
 * files and says nothing the user can act on. The full error, stack included, goes to the
 * backend's log instead, and the rethrown error (same name and class) carries a stack of its
 * first line.
 *
 * The task page shows the failed task's `error.message` as Markdown (scaffolder's OngoingTask:
 * `<ErrorPanel titleFormat="markdown" title={error.message}>`), where a placeholder such as
 * `<secret>` is an HTML tag and vanishes, and `*` or `_word_` turn into emphasis. So the message
 * is Markdown that shows the text as written ({@link markdownText}); the stack, which the task log
 * shows as plain text, keeps it as it is.
 */
export async function userFacingErrors<T>(
  logger: Pick<LoggerService, 'error'> | undefined,
  actionId: string,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (e) {
    const error = e instanceof Error ? e : new Error(String(e));
    logger?.error(`${actionId} failed: ${error.message}`, error);
    // A copy (same class, own fields such as a deployment result) so the logged error keeps its stack.
    const shown: Error = Object.assign(
      Object.create(Object.getPrototypeOf(error)),
      error,
    );
    Object.defineProperties(shown, {
      name: { value: error.name, writable: true, configurable: true },
      message: {
        value: markdownText(error.message),
        writable: true,
        configurable: true,
      },
      stack: {
        value: `${error.name}: ${error.message}`,
        writable: true,
        configurable: true,
      },
    });
    throw shown;
  }
}
