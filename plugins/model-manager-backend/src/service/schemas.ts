import {
  MODEL_PAGE_LIMIT_MAX,
  MODEL_SORT_FIELDS,
  namespaceProblem,
  type DeployRequest,
  type DeployTarget,
  type FleetQuery,
  type ModelListQuery,
  type ModelSort,
  type RenderRequest,
  type RollbackRequest,
  type RolloutApplyRequest,
  type RolloutPlanQuery,
  type SecretKeyRef,
  type ServerOverrides,
} from '@model-manager/plugin-model-manager-common';
import { z } from 'zod';

/** A namespace, checked by the one rule every entry point uses (common's namespaceProblem). */
const namespaceSchema = z
  .string({
    required_error: 'namespace is required',
    invalid_type_error: 'namespace must be a string',
  })
  .superRefine((namespace, ctx) => {
    const problem = namespaceProblem(namespace);
    if (problem)
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  });

/**
 * A Secret reference's shape is checked with the resolver's own messages (validateOverrides:
 * the Secret name, the key, valueFrom in the wrong place), so any object passes here.
 */
const secretRefSchema = z.custom<SecretKeyRef>(
  v => typeof v === 'object' && v !== null && !Array.isArray(v),
);
const envSchema = z.record(
  z.string(),
  z.union([z.string(), z.null(), secretRefSchema], {
    errorMap: () => ({
      message:
        'an env value is a string, null (removes an inherited variable) or a Secret reference { secretKeyRef: { name, key } }',
    }),
  }),
  {
    invalid_type_error:
      'env must be an object of NAME: value (value null removes an inherited variable; { secretKeyRef: { name, key } } reads it from a Secret)',
  },
);
const argsSchema = z.array(
  z.string({ invalid_type_error: 'each arg must be a string' }),
  {
    invalid_type_error:
      'args must be a list of flags such as ["--max-model-len=8192"]',
  },
);

export const overridesSchema = z
  .object({
    serverVersion: z
      .string({
        invalid_type_error: 'serverVersion must be a string such as "0.24.0"',
      })
      .optional(),
    env: envSchema.optional(),
    args: argsSchema.optional(),
  })
  .strict();

export const deployRequestSchema = overridesSchema
  .extend({
    cluster: z
      .string({
        required_error:
          'cluster is required (a name from kubernetes.clusterLocatorMethods)',
        invalid_type_error: 'cluster must be a string',
      })
      .min(1, 'cluster must not be empty')
      .max(253),
    namespace: namespaceSchema,
    dryRun: z
      .boolean({ invalid_type_error: 'dryRun must be true or false' })
      .optional(),
    force: z
      .boolean({ invalid_type_error: 'force must be true or false' })
      .optional(),
    skipPreflight: z
      .boolean({ invalid_type_error: 'skipPreflight must be true or false' })
      .optional(),
    rollout: z
      .object({
        runtime: z
          .string({ required_error: 'rollout.runtime is required' })
          .min(1),
        version: z.string().min(1).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export const renderRequestSchema = overridesSchema
  .extend({
    namespace: deployRequestSchema.shape.namespace.optional(),
    /** When set, the cluster must exist and allow the namespace, as for a deploy (GitOps render). */
    cluster: deployRequestSchema.shape.cluster.optional(),
  })
  .strict();

export const rollbackRequestSchema = z
  .object({
    revision: z
      .number({
        required_error: 'revision is required',
        invalid_type_error: 'revision must be a number',
      })
      .int()
      .positive(),
    dryRun: z.boolean().optional(),
    force: z.boolean().optional(),
  })
  .strict();

export const targetQuerySchema = z
  .object({
    cluster: deployRequestSchema.shape.cluster,
    namespace: deployRequestSchema.shape.namespace,
    serverVersion: z.string().optional(),
  })
  .strict();

const optionalText = z.string().min(1).max(253).optional();

/** `GET /fleet?cluster=&namespace=&runtime=&version=&state=` */
export const fleetQuerySchema = z
  .object({
    cluster: optionalText,
    namespace: namespaceSchema.optional(),
    runtime: optionalText,
    version: optionalText,
    state: z
      .enum(['Ready', 'NotReady', 'Missing', 'Unknown'], {
        errorMap: () => ({
          message: 'state must be one of Ready, NotReady, Missing, Unknown',
        }),
      })
      .optional(),
  })
  .strict();

/** `GET /rollouts/plan?runtime=&version=&cluster=&namespace=&includeHeld=` */
export const rolloutPlanQuerySchema = z
  .object({
    runtime: z
      .string({
        required_error:
          'runtime is required (a key of runtimes: in models.yaml, e.g. vllm)',
      })
      .min(1),
    version: optionalText,
    cluster: optionalText,
    namespace: namespaceSchema.optional(),
    /** Move held targets too (a version a rollout or a request set). */
    includeHeld: z
      .enum(['true', 'false'], {
        errorMap: () => ({ message: 'includeHeld must be true or false' }),
      })
      .transform(v => v === 'true')
      .optional(),
  })
  .strict();

/** `POST /rollouts/apply`: one batch of a rollout's targets (at most 200). */
export const rolloutApplyRequestSchema = z
  .object({
    runtime: z.string({ required_error: 'runtime is required' }).min(1),
    version: optionalText,
    rolloutId: z
      .string({
        required_error:
          'rolloutId is required (the rollout, e.g. the scaffolder task id)',
      })
      .min(1)
      .max(255),
    targets: z
      .array(
        z
          .object({
            model: z.string().min(1),
            cluster: deployRequestSchema.shape.cluster,
            namespace: deployRequestSchema.shape.namespace,
            overrides: overridesSchema,
          })
          .strict(),
      )
      .min(1, 'targets must not be empty')
      .max(200, 'at most 200 targets per request; send the rest in another'),
    concurrency: z.number().int().min(1).max(64).optional(),
    maxFailures: z.number().int().min(0).optional(),
    force: z.boolean().optional(),
  })
  .strict();

/** Turns a zod error into one message naming each field. */
const MODEL_SORTS: readonly string[] = MODEL_SORT_FIELDS.flatMap(f => [
  f,
  `-${f}`,
]);

/** A whole number in [min, max] given as a query string value. */
const queryInteger = (name: string, min: number, max: number) =>
  z
    .string({ invalid_type_error: `${name} must be given once` })
    .regex(/^\d+$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine(
      n => n >= min && n <= max,
      `${name} must be a whole number from ${min} to ${max}`,
    );

const queryText = (name: string) =>
  z.string({ invalid_type_error: `${name} must be given once` }).optional();

/** The query of `GET /models` (see ModelListQuery). */
export const modelListQuerySchema: z.ZodType<
  ModelListQuery,
  z.ZodTypeDef,
  unknown
> = z
  .object({
    runtime: queryText('runtime'),
    version: queryText('version'),
    category: queryText('category'),
    owner: queryText('owner'),
    q: queryText('q'),
    sort: z
      .string({ invalid_type_error: 'sort must be given once' })
      .refine(
        s => MODEL_SORTS.includes(s),
        `sort must be one of ${MODEL_SORTS.join(', ')}`,
      )
      .transform(s => s as ModelSort)
      .optional(),
    limit: queryInteger('limit', 1, MODEL_PAGE_LIMIT_MAX).optional(),
    offset: queryInteger('offset', 0, Number.MAX_SAFE_INTEGER).optional(),
  })
  .strict();

export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map(issue => {
      const path = issue.path.join('.');
      if (issue.code === 'unrecognized_keys')
        return `unknown field(s) ${issue.keys.map(k => `'${k}'`).join(', ')}${
          path ? ` in ${path}` : ''
        }`;
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/** `true` when each of A and B is assignable to the other. */
type Assignable<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? true
    : false
  : false;
/**
 * `true` when A and B are the same object type: assignable both ways, and with the same keys
 * (an optional field only one of them has is assignable both ways, but not the same).
 */
type Same<A, B> = Assignable<A, B> extends true
  ? Assignable<keyof A, keyof B>
  : false;

/**
 * Compile-time check that what each schema accepts is the request type of the REST contract the
 * clients send (`@model-manager/plugin-model-manager-common`): a schema and the contract that
 * drift apart fail `tsc` here.
 */
export const SCHEMAS_MATCH_THE_CONTRACT: {
  overrides: Same<z.infer<typeof overridesSchema>, ServerOverrides>;
  deploy: Same<z.infer<typeof deployRequestSchema>, DeployRequest>;
  render: Same<z.infer<typeof renderRequestSchema>, RenderRequest>;
  rollback: Same<z.infer<typeof rollbackRequestSchema>, RollbackRequest>;
  undeploy: Same<
    z.infer<ReturnType<typeof targetQuerySchema.omit<{ serverVersion: true }>>>,
    DeployTarget
  >;
  fleet: Same<z.infer<typeof fleetQuerySchema>, Omit<FleetQuery, 'model'>>;
  rolloutPlan: Same<z.infer<typeof rolloutPlanQuerySchema>, RolloutPlanQuery>;
  rolloutApply: Same<
    z.infer<typeof rolloutApplyRequestSchema>,
    RolloutApplyRequest
  >;
} = {
  overrides: true,
  deploy: true,
  render: true,
  rollback: true,
  undeploy: true,
  fleet: true,
  rolloutPlan: true,
  rolloutApply: true,
};
