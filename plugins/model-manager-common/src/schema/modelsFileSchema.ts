import { z } from 'zod';
import { MAX_KV_CACHE_GB, MAX_OBJECT_NAME_LENGTH } from '../constants';
import { labelValueProblem } from '../names/kubernetesNames';
import {
  imagePullSecretsSchema,
  SECRET_REF_EXAMPLE,
  secretRefProblems,
  type SecretKeyRef,
} from './secretRef';
import { looksLikeCredential } from '../resolver/requestSecrets';
import { stringParams } from './stringParams';

/**
 * KServe's InferenceService name pattern (a lowercase letter first) within a DNS-1035 label's 63
 * characters. Names derived from it (`<name>-download`, `<name>-predictor`) are checked per
 * runtime by the resolver, from MODEL_NAME_OBJECTS.
 */
export const MODEL_NAME_PATTERN = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;
/** A C identifier: what a container env var name must be to be usable by a shell and by vLLM. */
export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Kubernetes resource quantity (as kube-apiserver accepts for cpu and memory). */
export const QUANTITY_PATTERN =
  /^[+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei|e[0-9]+)?$/;
/** A Hugging Face repository id: `owner/name`. */
export const MODEL_ID_PATTERN = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;
/** No newline, carriage return or NUL. */
const SINGLE_LINE = /^[^\r\n\0]*$/;
/** The longest env value or arg accepted (Kubernetes caps whole objects at ~1.5 MB). */
export const MAX_VALUE_LENGTH = 16 * 1024;

const text = (what: string) =>
  z
    .string(stringParams(what))
    .min(1, `must not be empty (${what})`)
    .max(MAX_VALUE_LENGTH, `is longer than ${MAX_VALUE_LENGTH} characters`)
    .regex(
      SINGLE_LINE,
      `must be a single line without control characters (${what})`,
    );

/**
 * A value that becomes a Kubernetes label value on every object of a model (the
 * `model-manager.io/server-version`, `.../category` and `.../runtime` labels): checked here, at
 * load time, so a catalog never renders a label kube-apiserver refuses (IsValidLabelValue).
 */
const labelValue = (what: string) =>
  z
    .string(stringParams(what))
    .min(1, `must not be empty (${what})`)
    .superRefine((value, ctx) => {
      const problem = labelValueProblem(value, `${what} '${value}'`);
      if (problem)
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
    });

const quantity = (what: string) =>
  z.union(
    [
      z.number().positive(`${what} must be positive`),
      z
        .string()
        .regex(
          QUANTITY_PATTERN,
          `${what} must be a Kubernetes quantity such as 8, 500m or 16Gi`,
        ),
    ],
    {
      errorMap: () => ({
        message: `${what} must be a Kubernetes quantity such as 8, 500m or 16Gi`,
      }),
    },
  );

/**
 * One env value: a string, `null` (removes a variable set by an earlier layer), or a reference to
 * a Secret's key, `{ secretKeyRef: { name, key } }`, rendered as `valueFrom.secretKeyRef`. A value
 * YAML reads as a number or boolean is refused with "quote it", as for version, model_id and image
 * (`text()` above): its text would not survive (`0x10` is 16, `1e3` 1000, `1.0` 1, `True` true,
 * `.inf` Infinity), so the pod would get something else than what was written.
 */
const envValueSchema = z
  .custom<string | number | boolean | null | SecretKeyRef>(() => true)
  .superRefine((value, ctx) => {
    if (value === null) return;
    if (typeof value === 'number' || typeof value === 'boolean') {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `env values must be strings, and YAML read this one as the ${typeof value} ${String(
          value,
        )}, which is not always what was written (0x10 reads as 16, 1.0 as 1, True as true); quote it as the engine should get it, e.g. "${String(
          value,
        )}"`,
      });
      return;
    }
    if (typeof value === 'string') {
      if (value.length > MAX_VALUE_LENGTH)
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `is longer than ${MAX_VALUE_LENGTH} characters`,
        });
      else if (!SINGLE_LINE.test(value))
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: 'env values must be a single line (no newline or NUL)',
        });
      else if (looksLikeCredential(value))
        // models.yaml lives in git and its values are rendered, explained and shown: a token
        // belongs in a Secret. The message does not repeat the value.
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `this value looks like a credential (a token); models.yaml holds references, not secrets: put it in a Secret (kubectl create secret generic <secret> --from-literal=<key>=...) and write ${SECRET_REF_EXAMPLE}`,
        });
      return;
    }
    if (typeof value === 'object' && !Array.isArray(value)) {
      for (const p of secretRefProblems(value))
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: p.path,
          message: p.message,
          // zodProblems points at the key itself (a key that does not belong there).
          ...(p.atKey ? { params: { at: 'key' } } : {}),
        });
      return;
    }
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: `env values must be a string, null to remove an inherited variable, or a Secret reference, ${SECRET_REF_EXAMPLE}`,
    });
  });

/**
 * The message of a wrong type: `ifNull` when YAML read the value as null (a key with nothing under
 * it, which reads as "nothing here" but is not an empty map or list), else `otherwise`.
 */
function nullOr(ifNull: string, otherwise: string): z.ZodErrorMap {
  return (issue, ctx) => {
    if (issue.code !== z.ZodIssueCode.invalid_type)
      return { message: ctx.defaultError };
    return { message: issue.received === 'null' ? ifNull : otherwise };
  };
}

/** An env map, `NAME: value` (see envValueSchema). */
export const envMapSchema = z.record(
  z.string().regex(ENV_NAME_PATTERN, {
    message:
      'env names must be C identifiers (letters, digits, _; not starting with a digit)',
  }),
  envValueSchema,
  {
    errorMap: nullOr(
      'env is empty: YAML reads `env:` with nothing under it as null; write the variables under it (NAME: value), or remove the key',
      `env must be a map of NAME: value (not a Kubernetes env list); a Secret: ${SECRET_REF_EXAMPLE}`,
    ),
  },
);
export type EnvMap = z.infer<typeof envMapSchema>;

export const argsSchema = z.array(
  text('an engine flag such as --max-model-len=8192'),
  {
    errorMap: nullOr(
      'args is empty: YAML reads `args:` with nothing under it as null; list the flags under it (- --max-model-len=8192), or remove the key',
      'args must be a list of strings, e.g. ["--max-model-len=8192"]',
    ),
  },
);

/**
 * A whole number of GiB: vLLM reads VLLM_CPU_KVCACHE_SPACE with int() and fails to start on
 * `0.5` or `1e+21` (vllm/envs.py).
 */
export const kvCacheGbSchema = z
  .number({
    // null is a model's way to remove its category's value; where it is refused (category
    // defaults, the first layer) the message says why.
    errorMap: nullOr(
      'kv_cache_gb: null removes an inherited value, and category defaults are the first layer, with nothing to remove. Remove the key (vLLM then uses its own default), or set a whole number of GiB, e.g. 8',
      'kv_cache_gb must be a whole number of GiB (vLLM reads VLLM_CPU_KVCACHE_SPACE as an integer); write e.g. 8',
    ),
  })
  .int(
    `kv_cache_gb must be a whole number of GiB (vLLM reads VLLM_CPU_KVCACHE_SPACE as an integer); write e.g. 8`,
  )
  .positive(
    "kv_cache_gb must be at least 1 GiB; leave it unset for vLLM's default",
  )
  .max(
    MAX_KV_CACHE_GB,
    `kv_cache_gb must be at most ${MAX_KV_CACHE_GB} GiB; a larger KV cache fits no node`,
  );

export const resourcesSchema = z
  .object({
    cpu: quantity('cpu').optional(),
    memory: quantity('memory').optional(),
    kv_cache_gb: kvCacheGbSchema.optional(),
    // The values a runtime accepts are its engine profile's (weights.formats), checked at load.
    weight_format: text('a weight format such as int8')
      .regex(
        /^[A-Za-z0-9_.-]+$/,
        "weight_format must be a weight format name such as int8; the runtime's engine profile lists the ones it accepts (weights.formats)",
      )
      .optional(),
  })
  .strict();
export type ResourceDefaults = z.infer<typeof resourcesSchema>;

export const categorySchema = z
  .object({
    defaults: resourcesSchema.optional(),
    env: envMapSchema.optional(),
    args: argsSchema.optional(),
  })
  .strict();
export type CategoryConfig = z.infer<typeof categorySchema>;

export const versionSchema = z
  .object({
    image: text('a container image reference'),
    env: envMapSchema.optional(),
    args: argsSchema.optional(),
    image_pull_secrets: imagePullSecretsSchema.optional(),
  })
  .strict();
export type VersionConfig = z.infer<typeof versionSchema>;

/**
 * The engine profile a runtime uses, as a path under runtimes/ (default `<runtime>/profile.yaml`):
 * e.g. a second vLLM runtime names `vllm/profile.yaml`.
 */
const profileRef = text(
  'a profile path under runtimes/, e.g. vllm/profile.yaml',
)
  .regex(
    /^[\w.-]+\/profile\.yaml$/,
    "profile must name a runtime folder's profile.yaml under runtimes/, e.g. vllm/profile.yaml",
  )
  .optional();

/**
 * The plumbing keys the code reads by name (`PLUMBING_READ_BY_CODE`), as their engine profile
 * declares them: text. Every other plumbing key is the profile's (`plumbing:`), checked against
 * its declaration when the runtime is merged (mergeRuntime), and reaches only the templates.
 */
export interface PlumbingReadByCode {
  kind?: string;
  routing?: string;
  image?: string;
  device?: string;
  served_model_name?: string;
  api_prefix?: string;
  serving_runtime_manifest?: string;
  runtime_name?: string;
}

/**
 * runtimes/<name>/values.yaml: plumbing, and which engine profile the runtime uses. The plumbing
 * keys are the profile's (`plumbing:`), so they are checked when the runtime meets its profile.
 */
export const valuesFileSchema = z.object({ profile: profileRef }).passthrough();
export type ValuesFile = z.infer<typeof valuesFileSchema> & PlumbingReadByCode;

/** One entry of the `runtimes:` section of models.yaml (plumbing keys may be overridden here). */
export const runtimeSchema = z
  .object({
    default_version: text('a key of versions:').optional(),
    env: envMapSchema.optional(),
    image_pull_secrets: imagePullSecretsSchema.optional(),
    versions: z
      .record(labelValue('the server version key'), versionSchema)
      .optional(),
    categories: z.record(labelValue('the category name'), categorySchema),
    profile: profileRef,
  })
  // Plumbing keys are the runtime's engine profile's (`plumbing:`): checked by mergeRuntime.
  .passthrough();
export type RuntimeConfig = z.infer<typeof runtimeSchema> & PlumbingReadByCode;

/** A model's server binding: which runtime (and version) serves it, and its own settings. */
export const serverBindingSchema = z
  .object({
    runtime: text('a key of runtimes:'),
    server_version: text('a key of the runtime versions:').optional(),
    image: text('a container image reference').optional(),
    image_pull_secrets: imagePullSecretsSchema.optional(),
    env: envMapSchema.optional(),
    args: argsSchema.optional(),
    /** `null` removes what the category set (e.g. `kv_cache_gb: null`: no KV cache variable). */
    resources: z
      .object({
        cpu: quantity('cpu').nullable().optional(),
        memory: quantity('memory').nullable().optional(),
        kv_cache_gb: kvCacheGbSchema.nullable().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type ServerBinding = z.infer<typeof serverBindingSchema>;

export const modelSchema = z
  .object({
    model_id: text(
      'a Hugging Face repo id such as Qwen/Qwen2.5-7B-Instruct',
    ).regex(MODEL_ID_PATTERN, {
      message:
        'model_id must be a Hugging Face repo id of the form owner/name, e.g. Qwen/Qwen2.5-7B-Instruct',
    }),
    category: labelValue('the category'),
    server: serverBindingSchema,
    moe: z
      .boolean({ invalid_type_error: 'moe must be true or false' })
      .optional(),
    /** `null` opts the model out of its category's weight_format. */
    weight_format: resourcesSchema.shape.weight_format
      .unwrap()
      .nullable()
      .optional(),
    description: z.string().max(MAX_VALUE_LENGTH).optional(),
    display_name: text('a display name').optional(),
    owner: text(
      'an owner entity ref such as group:default/ml-platform',
    ).optional(),
    lifecycle: text('a lifecycle such as production').optional(),
    system: text('a system entity ref').optional(),
    tags: z.array(text('a tag')).optional(),
  })
  .strict();
export type ModelConfig = z.infer<typeof modelSchema>;

export const modelsFileSchema = z
  .object({
    models: z.record(
      z.string().regex(MODEL_NAME_PATTERN, {
        message: `model names name Kubernetes objects, so they must match KServe's InferenceService name pattern ^[a-z]([-a-z0-9]*[a-z0-9])?$ (a lowercase letter first, then lowercase letters, digits and -, not ending in -) and be at most ${MAX_OBJECT_NAME_LENGTH} characters; e.g. rename 3b-model to model-3b`,
      }),
      modelSchema,
    ),
    runtimes: z.record(labelValue('the runtime name'), runtimeSchema),
  })
  .strict();
export type ModelsFile = z.infer<typeof modelsFileSchema>;

/**
 * The schemas of models.yaml and values.yaml for a set of engine profiles: strict, with the
 * plumbing keys the profiles declare (`plumbing:`) as the only keys besides the fixed ones, so a
 * misspelt key gets "did you mean". Which keys apply to which runtime, and their types, are checked
 * against its own profile when the runtime is merged (mergePlumbing). `strict: false` (a profile
 * did not load, so its keys are not known) lets other keys through, unchecked.
 */
export function schemasFor(plumbingKeys: readonly string[], strict: boolean) {
  const plumbing = Object.fromEntries(
    plumbingKeys.map(k => [k, z.unknown()]),
  ) as Record<string, z.ZodUnknown>;
  const runtime = strict
    ? runtimeSchema.extend(plumbing).strict()
    : runtimeSchema.extend(plumbing).passthrough();
  return {
    runtime,
    models: modelsFileSchema.extend({
      runtimes: z.record(labelValue('the runtime name'), runtime),
    }),
    values: strict
      ? valuesFileSchema.extend(plumbing).strict()
      : valuesFileSchema.extend(plumbing).passthrough(),
  };
}
