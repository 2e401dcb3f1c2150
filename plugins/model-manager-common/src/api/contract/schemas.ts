import { z } from 'zod';
import { namespaceProblem } from '../../names/kubernetesNames';
import type { ServerOverrides } from '../../resolver/types';
import type { SecretKeyRef } from '../../schema/secretRef';
import {
  MODEL_PAGE_LIMIT_MAX,
  MODEL_SORT_FIELDS,
  type ModelListQuery,
  type ModelSort,
} from '../models';

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

/** A deploy's overrides: `serverVersion`, `env`, `args` (see the resolver's ServerOverrides). */
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
    /** Server-side dry run: the API server validates everything, nothing is applied. */
    dryRun: z
      .boolean({ invalid_type_error: 'dryRun must be true or false' })
      .optional(),
    /** Take over fields owned by another field manager. */
    force: z
      .boolean({ invalid_type_error: 'force must be true or false' })
      .optional(),
    /**
     * Apply even though a preflight check failed (see `GET /models/:name/preflight`). Audited, and
     * recorded in the history row (`skippedPreflight`).
     */
    skipPreflight: z
      .boolean({ invalid_type_error: 'skipPreflight must be true or false' })
      .optional(),
    /**
     * Set by `model-manager:rollout`: the deploy moves the target to this runtime version. It is
     * recorded as a `rollout`, and its serverVersion does not pin the target for later rollouts.
     */
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
    /** Server-side dry run: `objects[].changes` lists what the rollback would change. */
    dryRun: z.boolean().optional(),
    force: z.boolean().optional(),
  })
  .strict();

/** Where a model is deployed: a cluster of `kubernetes.clusterLocatorMethods` and a namespace. */
export const deployTargetSchema = z
  .object({
    cluster: deployRequestSchema.shape.cluster,
    namespace: deployRequestSchema.shape.namespace,
  })
  .strict();

/** `?cluster=&namespace=&serverVersion=` (diff and preflight also read env, envSecret and arg). */
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
    /** Move held targets too (a version set by a rollout or a request); default: they stay, listed as `held`. */
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
    /** The version rolled out; absent: what the catalog resolves now. */
    version: optionalText,
    /**
     * The rollout these applies belong to (the scaffolder task id). A target this rollout already
     * applied is not applied again: its recorded revision is returned.
     */
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
    /** How many targets of the batch are applied at once (default 4). */
    concurrency: z.number().int().min(1).max(64).optional(),
    /** Stop starting targets of the batch once more than this many failed (default: never stop). */
    maxFailures: z.number().int().min(0).optional(),
    force: z.boolean().optional(),
  })
  .strict();

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

/** `true` when each of A and B is assignable to the other. */
type Assignable<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? true
    : false
  : false;

/**
 * Compile-time check that the overrides a request carries are the resolver's `ServerOverrides`
 * (the one request type not derived from a schema: the resolver is written against it).
 */
export const OVERRIDES_MATCH_THE_RESOLVER: Assignable<
  z.infer<typeof overridesSchema>,
  ServerOverrides
> = true;
