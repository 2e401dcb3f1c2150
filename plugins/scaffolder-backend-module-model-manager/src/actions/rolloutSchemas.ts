import type { TemplateActionOptions } from '@backstage/plugin-scaffolder-node';

/** The zod (v3 API) the scaffolder hands to schema functions. */
type Z = Parameters<
  NonNullable<NonNullable<TemplateActionOptions['schema']>['input']>[string]
>[0];

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
  readyTimeoutSeconds: (z: Z) =>
    z
      .number()
      .int()
      .min(1)
      .max(86_400)
      .optional()
      .describe(
        'How long to wait for a canary target to become Ready (default 900)',
      ),
};

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
