import type { TemplateActionOptions } from '@backstage/plugin-scaffolder-node';

/** The zod (v3 API) the scaffolder hands to schema functions. */
type Z = Parameters<
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
        'For failed and not-applied objects: what went wrong and what to do',
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
