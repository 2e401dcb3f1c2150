import type { LoggerService } from '@backstage/backend-plugin-api';
import { clientNode } from './clientNode';
import { KubernetesApiError } from './KubernetesApiError';

/** The longest pause between two attempts. */
const MAX_DELAY_MS = 5000;

/**
 * Calls `call` until it succeeds, for at most `maxAttempts` attempts. Only retryable failures are
 * tried again (429, 5xx other than SSA's "failed to create typed patch object", connection errors,
 * timeouts: {@link KubernetesApiError.retryable}); the pause doubles from `baseDelayMs`, or
 * follows the server's `Retry-After`, capped at 5 s. Each retry is logged as a warning naming
 * `label`.
 * @throws KubernetesApiError the last failure.
 */
export async function withRetry<T>(
  call: () => Promise<T>,
  options: {
    maxAttempts: number;
    baseDelayMs: number;
    label: string;
    logger: Pick<LoggerService, 'warn'>;
  },
): Promise<T> {
  let lastError: KubernetesApiError | undefined;
  for (let attempt = 1; attempt <= options.maxAttempts; attempt++) {
    try {
      return await call();
    } catch (e) {
      const { ApiException } = clientNode();
      lastError =
        e instanceof ApiException
          ? KubernetesApiError.fromResponse(e.code, e.body)
          : e instanceof KubernetesApiError
          ? e
          : KubernetesApiError.fromNetworkError(e);
      if (!lastError.retryable || attempt === options.maxAttempts)
        throw lastError;
      const retryAfter =
        e instanceof ApiException ? Number(e.headers?.['retry-after']) : NaN;
      const delay =
        Number.isFinite(retryAfter) && retryAfter > 0
          ? Math.min(retryAfter * 1000, MAX_DELAY_MS)
          : Math.min(options.baseDelayMs * 2 ** (attempt - 1), MAX_DELAY_MS);
      options.logger.warn(
        `${options.label}: ${
          lastError.message
        }; retrying in ${delay} ms (attempt ${attempt + 1} of ${
          options.maxAttempts
        })`,
      );
      await new Promise(resolve => setTimeout(resolve, delay));
    }
  }
  throw lastError;
}
