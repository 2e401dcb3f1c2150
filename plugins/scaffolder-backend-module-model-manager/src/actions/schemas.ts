import type { TemplateActionOptions } from '@backstage/plugin-scaffolder-node';

/** The zod (v3 API) the scaffolder hands to schema functions. */
export type Z = Parameters<
  NonNullable<NonNullable<TemplateActionOptions['schema']>['input']>[string]
>[0];

/** One object of a deploy or undeploy result (an item of the `objects` output). */
export function objectResultSchema(z: Z) {
  return z.object({
    apiVersion: z.string(),
    kind: z.string(),
    name: z.string(),
    namespace: z.string().optional(),
    action: z
      .enum([
        'created',
        'configured',
        'unchanged',
        'exists',
        'replaced',
        'deleted',
        'absent',
        'failed',
        'not-applied',
      ])
      .describe('What happened to the object'),
    message: z
      .string()
      .optional()
      .describe(
        'For failed and not-applied objects: what went wrong and what to do; for replaced ones: why',
      ),
    reason: z
      .string()
      .optional()
      .describe('The Kubernetes reason when the API server said no'),
    conflicts: z
      .array(z.object({ manager: z.string(), field: z.string() }))
      .optional(),
  });
}

/**
 * The inputs a deploy and a render share, so both actions take (and describe) a model and its
 * overrides alike: `model`, `serverVersion`, `env`, `args`.
 */
export const modelOverridesInput = {
  model: (z: Z) =>
    z
      .string()
      .describe(
        'The model: its catalog entity ref (component:default/qwen2-5-7b-instruct, as the EntityPicker gives it) or its name in models.yaml',
      ),
  serverVersion: (z: Z) =>
    z
      .string()
      .optional()
      .describe(
        "Server version: a key of the runtime's versions (vLLM, e.g. 0.24.0). Default: the model's server_version, else the runtime's default_version. Leave it out for flat runtimes such as OpenVINO",
      ),
  env: (z: Z) =>
    z
      .record(
        z.string(),
        z.union([
          z.string(),
          z.null(),
          z.object({
            secretKeyRef: z.object({ name: z.string(), key: z.string() }),
          }),
        ]),
      )
      .optional()
      .describe(
        "Environment variables added to the model server, NAME: value (C identifiers; single-line values). null removes an inherited variable; { secretKeyRef: { name, key } } reads it from a Secret of the target namespace. Never a secret's value: a token is refused",
      ),
  args: (z: Z) =>
    z
      .array(z.string())
      .optional()
      .describe(
        'Server flags added to the model server, one flag per item such as --max-model-len=8192; a repeated flag replaces the inherited one',
      ),
};

/**
 * The `readyTimeoutSeconds` input of an action that waits until KServe reports Ready
 * (`model-manager:deploy`, the rollout's canary): whole seconds, at most a day; left out, it is
 * 900 (`readyTimeoutMs` of waitForReady.ts). Each action says in `description` what it waits for.
 */
export function readyTimeoutSecondsInput(description: string) {
  return (z: Z) =>
    z.number().int().min(1).max(86_400).optional().describe(description);
}
