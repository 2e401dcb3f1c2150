/**
 * `GET /models/:name/preflight`: will this target accept and run this model? Shared by the
 * backend, the scaffolder module, the frontend and the CLI. Schemas: ./contract/answers/preflight.ts.
 */
import type { z } from 'zod';
import type {
  preflightCheckIdSchema,
  preflightCheckSchema,
  preflightResponseSchema,
  preflightStatusSchema,
} from './contract/answers/preflight';

/** `pass`: fine; `warn`: may run, read the message; `fail`: would not run; `unknown`: could not be read. */
export type PreflightStatus = z.infer<typeof preflightStatusSchema>;

/** The checks, in the order they are listed. */
export type PreflightCheckId = z.infer<typeof preflightCheckIdSchema>;

/** One check of a preflight. */
export type PreflightCheck = z.infer<typeof preflightCheckSchema>;

/** The answer of `GET /models/:name/preflight?cluster=&namespace=` (with a deploy's overrides). */
export type PreflightResponse = z.infer<typeof preflightResponseSchema>;

/**
 * The body of a deploy refused by preflight (409): nothing was applied. Deploy again with
 * `skipPreflight: true` to apply anyway (audited, and named in the history row).
 */
export type PreflightFailedResponse = {
  error: { name: 'PreflightFailedError'; message: string };
  checks: PreflightCheck[];
};

/** Whether any check failed. */
export function preflightFailed(checks: readonly PreflightCheck[]): boolean {
  return checks.some(c => c.status === 'fail');
}
