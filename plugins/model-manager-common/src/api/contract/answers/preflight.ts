/**
 * `GET /models/:name/preflight`: will this target accept and run this model? Shared by the
 * backend, the scaffolder module, the frontend and the CLI.
 */
import { z } from 'zod';
import { targetShape } from './common';

/** `pass`: fine; `warn`: may run, read the message; `fail`: would not run; `unknown`: could not be read. */
export const preflightStatusSchema = z.enum([
  'pass',
  'warn',
  'fail',
  'unknown',
]);

/** The checks, in the order they are listed. */
export const preflightCheckIdSchema = z.enum([
  'engine',
  'api-versions',
  'namespace',
  'deployment-mode',
  'secrets',
  'quota',
  'limit-range',
  'nodes',
  'storage',
  'gateway',
  'protocol',
  'gateway-config',
]);

/** One check of a preflight. */
export const preflightCheckSchema = z.object({
  id: preflightCheckIdSchema,
  /** What is checked, in words (e.g. "A schedulable node fits the pod"). */
  title: z.string(),
  status: preflightStatusSchema,
  /** What was found, naming the objects read. */
  message: z.string(),
  /** What to do about a `fail`, `warn` or `unknown`. */
  fix: z.string().optional(),
});

/** The answer of `GET /models/:name/preflight?cluster=&namespace=` (with a deploy's overrides). */
export const preflightResponseSchema = z.object({
  ...targetShape,
  checks: z.array(preflightCheckSchema),
});
