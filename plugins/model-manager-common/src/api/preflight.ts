/**
 * `GET /models/:name/preflight`: will this target accept and run this model? Shared by the
 * backend, the scaffolder module, the frontend and the CLI.
 */

/** `pass`: fine; `warn`: may run, read the message; `fail`: would not run; `unknown`: could not be read. */
export type PreflightStatus = 'pass' | 'warn' | 'fail' | 'unknown';

/** The checks, in the order they are listed. */
export type PreflightCheckId =
  | 'engine'
  | 'api-versions'
  | 'namespace'
  | 'secrets'
  | 'quota'
  | 'limit-range'
  | 'nodes'
  | 'storage'
  | 'gateway';

/** One check of a preflight. */
export type PreflightCheck = {
  id: PreflightCheckId;
  /** What is checked, in words (e.g. "A schedulable node fits the pod"). */
  title: string;
  status: PreflightStatus;
  /** What was found, naming the objects read. */
  message: string;
  /** What to do about a `fail`, `warn` or `unknown`. */
  fix?: string;
};

/** The answer of `GET /models/:name/preflight?cluster=&namespace=` (with a deploy's overrides). */
export type PreflightResponse = {
  model: string;
  cluster: string;
  namespace: string;
  checks: PreflightCheck[];
};

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
