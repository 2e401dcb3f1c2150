import { readyTimeoutSecondsInput, type Z } from './schemas';

/**
 * The inputs and outputs the rollout actions share, described once: `model-manager:rollout` and
 * its step actions (`version` differs: the one-step action's picks the target version itself).
 */
export const rolloutInputs = {
  runtime: (z: Z) =>
    z
      .string()
      .min(1)
      .describe('The runtime: a key of runtimes: in models.yaml, such as vllm'),
  version: (z: Z) =>
    z
      .string()
      .optional()
      .describe(
        "The version the plan moved targets to (a key of the runtime's versions:); leave it out when the plan applies what the catalog resolves now",
      ),
  cluster: (z: Z) =>
    z.string().optional().describe('Only targets on this cluster'),
  namespace: (z: Z) =>
    z.string().optional().describe('Only targets in this namespace'),
  canary: (z: Z) =>
    z
      .number()
      .int()
      .min(0)
      .max(100)
      .optional()
      .describe(
        'How many targets go first, one at a time, each waiting until Ready (default 1)',
      ),
  /** The moves of `model-manager:rollout:plan`'s `canary` or `rest` output. */
  moves: (z: Z) =>
    z
      .array(
        z
          .object({
            model: z.string(),
            cluster: z.string(),
            namespace: z.string(),
            fromVersion: z.string().optional(),
            toVersion: z.string().optional(),
            overrides: z.record(z.unknown()).optional(),
          })
          .passthrough(),
      )
      .describe(
        'The targets to move, in order: the canary or rest output of model-manager:rollout:plan',
      ),
  total: (z: Z) =>
    z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(
        "How many targets the whole rollout moves (the plan's total output), for the k/total progress lines",
      ),
  force: (z: Z) =>
    z
      .boolean()
      .optional()
      .describe(
        'Take over fields someone changed outside model-manager (drift) instead of failing on the conflict (default false)',
      ),
  readyTimeoutSeconds: readyTimeoutSecondsInput(
    'How long to wait for a canary target to become Ready (default 900)',
  ),
};

/**
 * The limits of how a rollout applies the targets after its canary, which `model-manager:rollout`
 * and `model-manager:rollout:batches` take alike and describe each in its own words: those of
 * `POST /rollouts/apply` (`rolloutApplyRequestSchema` in the common package: concurrency 1 to 64,
 * at most 200 targets a request, maxFailures from 0).
 */
export const rolloutApplyInputs = {
  concurrency: (description: string) => (z: Z) =>
    z.number().int().min(1).max(64).optional().describe(description),
  batchSize: (description: string) => (z: Z) =>
    z.number().int().min(1).max(200).optional().describe(description),
  maxFailures: (description: string) => (z: Z) =>
    z.number().int().min(0).optional().describe(description),
};

/**
 * A canary target applied, with the revision its apply recorded (`AppliedTarget` of runRollout.ts):
 * what the canary step outputs and the wait-canary step waits for.
 */
export function appliedTargetSchema(z: Z) {
  return z.object({
    target: z.string(),
    model: z.string(),
    cluster: z.string(),
    namespace: z.string(),
    revision: z.number().optional(),
  });
}

export const rolloutOutputs = {
  summary: (z: Z) =>
    z
      .string()
      .describe(
        'What the step did, in one sentence with the targets by name (for the template output)',
      ),
  moved: (z: Z) =>
    z.array(z.string()).describe('Targets moved, as model@cluster/namespace'),
  failed: (z: Z) =>
    z
      .array(z.object({ target: z.string(), message: z.string().optional() }))
      .describe('Targets that failed, with why'),
  notAttempted: (z: Z) =>
    z
      .array(z.string())
      .describe('Targets not attempted because the rollout stopped'),
  unchanged: (z: Z) =>
    z
      .array(
        z.object({ target: z.string(), why: z.string(), reason: z.string() }),
      )
      .describe('Targets the plan leaves as they are, and why'),
};
