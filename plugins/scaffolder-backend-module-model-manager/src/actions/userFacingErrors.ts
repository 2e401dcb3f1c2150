import type { LoggerService } from '@backstage/backend-plugin-api';

/**
 * Runs an action's handler so that a failure shows the user its message only. The scaffolder
 * writes a failed step's `error.stack` into the task log the user reads; a Node stack names server
 * files and says nothing the user can act on. The full error, stack included, goes to the
 * backend's log instead, and the rethrown error (same name, class and message) carries a stack of
 * its first line.
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
      message: { value: error.message, writable: true, configurable: true },
      stack: {
        value: `${error.name}: ${error.message}`,
        writable: true,
        configurable: true,
      },
    });
    throw shown;
  }
}
