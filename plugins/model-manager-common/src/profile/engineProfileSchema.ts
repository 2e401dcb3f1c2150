import { z } from 'zod';
import { signatureSchema } from '../diagnosis/signatures';
import { PROGRESS_READER_NAMES } from '../progress/progressReaders';
import { plumbingSchema } from './plumbing';
import { endpointsSchema, toEndpointRules } from './endpoints';
import type { EngineProfile, FlagKind } from './types';
import {
  controllerGatewaySchema,
  controllerKindsSchema,
  controllerTlsSchema,
  gatewayClassSchema,
  gatewayConfigSchema,
} from './controllerSchemas';
import { text } from './profileText';

/** The OpenAI-compatible operations a profile may declare per category. */
export const API_OPERATIONS = [
  'chat',
  'completions',
  'embeddings',
  'rerank',
  'score',
] as const;
export type ApiOperation = (typeof API_OPERATIONS)[number];

/** A template or manifest path under runtimes/, e.g. `templates/inference-service.yaml`. */
const templateRef = text('a path under runtimes/, e.g. templates/x.yaml').regex(
  /^[\w.-]+\/[\w.-]+\.ya?ml$/,
  'must be a path under runtimes/ of the form <folder>/<file>.yaml, e.g. templates/inference-service.yaml',
);
const flag = text('a flag such as --enable-expert-parallel').regex(
  /^--?[\w.-]+$/,
  'must be a flag such as --enable-expert-parallel or -ep',
);
const objectSchema = z
  .object({
    template: templateRef.optional(),
    serving_runtime: z
      .literal(true, {
        errorMap: () => ({
          message:
            'serving_runtime: true renders the manifest plumbing serving_runtime_manifest names; remove the key otherwise',
        }),
      })
      .optional(),
    apply: z
      .enum(['apply', 'create-if-absent', 'recreate-when-immutable'], {
        errorMap: () => ({
          message:
            'apply must be apply (owned by the model), create-if-absent (shared: created when missing, never changed or deleted) or recreate-when-immutable (owned; deleted and created again when a change touches an immutable field, e.g. a Job)',
        }),
      })
      .default('apply'),
    // This object reports the model's preparation (e.g. the weights download), read the named way
    // (progress/progressReaders.ts).
    progress: z
      .enum(PROGRESS_READER_NAMES, {
        errorMap: () => ({
          message: `progress says how the object reports the model's preparation: one of ${PROGRESS_READER_NAMES.join(
            ', ',
          )} (job: a batch/v1 Job, read by its conditions and pods)`,
        }),
      })
      .optional(),
  })
  .strict()
  .refine(o => (o.template === undefined) !== (o.serving_runtime !== true), {
    message:
      'each object needs exactly one of template: <path under runtimes/> or serving_runtime: true',
  })
  .refine(o => o.progress === undefined || o.template !== undefined, {
    message:
      'progress: applies to a template: object (one the model owns), not to serving_runtime: true',
    path: ['progress'],
  });

/**
 * runtimes/<name>/profile.yaml: what the engine is. Every key the code needs is required (an
 * incomplete profile is an error, never a silent default that fits another engine).
 */
export const engineProfileSchema = z
  .object({
    engine: text('the engine name shown in messages, e.g. vLLM'),
    versioned: z.boolean({
      required_error:
        'versioned is required: true when the runtime has versions: (each with an image), false for a flat runtime',
      invalid_type_error: 'versioned must be true or false',
    }),
    objects: z
      .array(objectSchema, {
        required_error:
          'objects is required: the templates a model renders, in apply order, e.g. [{ template: templates/inference-service.yaml }]',
      })
      .min(1, 'objects must list at least the model server object')
      .refine(objects => objects.filter(o => o.progress).length <= 1, {
        message:
          "at most one object may say progress: (the one that reports the model's preparation)",
      }),
    routing: z.record(z.array(templateRef), {
      required_error:
        'routing is required: the route templates per plumbing routing value, e.g. { epp: [] }',
    }),
    // Placeholder values per routing value, for what the model's own objects carry only under
    // some routings (vLLM's LLMInferenceService `router:` block, only for epp): a placeholder
    // named here is filled with the model's routing's value, and removed where it has none.
    routing_values: z
      .record(
        z.record(z.unknown(), {
          invalid_type_error:
            'each routing_values entry is a map of placeholder name to value, e.g. { epp: { router: { scheduler: {} } } }',
        }),
        {
          invalid_type_error:
            'routing_values must be a map of routing value to placeholder values, e.g. { epp: { router: { scheduler: {} } } }',
        },
      )
      .default({}),
    controller_gateway: controllerGatewaySchema,
    controller_kinds: controllerKindsSchema,
    controller_tls: controllerTlsSchema,
    gateway_config: gatewayConfigSchema,
    gateway_class: gatewayClassSchema,
    kv_cache: z
      .object({
        env: text('an env var name, e.g. VLLM_CPU_KVCACHE_SPACE'),
        unit: z.literal('GiB', {
          errorMap: () => ({
            message: 'unit must be GiB (kv_cache_gb is a whole number of GiB)',
          }),
        }),
        max_share_of_memory: z
          .number()
          .gt(0, 'max_share_of_memory must be above 0')
          .max(1, 'max_share_of_memory must be at most 1'),
        no_generation: z.array(text('a category name, e.g. embed')).default([]),
      })
      .strict()
      .optional(),
    moe_only_flags: z.array(flag).default([]),
    flag_aliases: z.record(flag).default({}),
    flag_underscore_is_dash: z
      .boolean({
        invalid_type_error: 'flag_underscore_is_dash must be true or false',
      })
      .default(false),
    flag_kinds: z
      .object({
        boolean: z.array(flag).default([]),
        store_true: z.array(flag).default([]),
        value: z.array(flag).default([]),
      })
      .strict()
      .default({}),
    flag_abbreviations: z
      .boolean({
        invalid_type_error: 'flag_abbreviations must be true or false',
      })
      .default(false),
    flag_equals_value: z
      .boolean({
        invalid_type_error: 'flag_equals_value must be true or false',
      })
      .default(true),
    args_hint: text('how to set what an args item cannot').optional(),
    weights: z
      .object({
        converter: text('what converts weights, e.g. ovms --pull'),
        ir_repo_prefix: text('a repo prefix such as OpenVINO/').optional(),
        ir_format: text('the format name, e.g. OpenVINO IR').optional(),
        ir_refusal: text('what the converter does on such a repo').optional(),
        download_args: z.array(text('a download Job argument')).min(1),
        // The weight_format values the converter accepts (models.yaml's weight_format is checked
        // against them at load time).
        formats: z
          .array(
            text('a weight format, e.g. int8').regex(
              /^[A-Za-z0-9_.-]+$/,
              'must be a weight format name such as int8',
            ),
            {
              required_error:
                'weights.formats is required: the weight_format values the converter accepts, e.g. [fp16, int8, int4]',
            },
          )
          .min(1, 'weights.formats must list at least one weight format'),
        // Where the download puts a model's weights, relative to the weights claim (the
        // `weights_path` placeholder; same placeholders as download_args).
        path: text('a path such as ${model.name}/${model.model_id}').optional(),
        tasks: z.record(text('a download task')).default({}),
        default_task: text('a download task').optional(),
      })
      .strict()
      .optional(),
    download: z
      .object({
        env: z.array(
          text('an env var name the download reads, e.g. HF_TOKEN').regex(
            /^[A-Za-z_][A-Za-z0-9_]*$/,
            'must be an env var name such as HF_TOKEN',
          ),
        ),
        init_container: text(
          'the init container that downloads, e.g. storage-initializer',
        ).optional(),
      })
      .strict()
      .optional(),
    name_suffixes: z
      .array(
        z
          .object({
            suffix: text('a name suffix such as -predictor').regex(
              /^-[a-z0-9-]*$/,
              'suffix must start with - and hold lowercase letters, digits and -',
            ),
            object: text('what gets that name'),
          })
          .strict(),
      )
      .default([]),
    api: z
      .object({
        operations: z.record(
          z.array(
            z.enum(API_OPERATIONS, {
              errorMap: () => ({
                message: `must be one of ${API_OPERATIONS.join(', ')}`,
              }),
            }),
          ),
        ),
        // Categories whose chat messages may carry images (OpenAI content parts of type
        // image_url): their API definitions say so.
        image_input: z.array(text('a category name, e.g. vlm')).default([]),
      })
      .strict(),
    status: z
      .object({
        conditions: z.array(text('a KServe condition type')),
        explain: z
          .record(text('what the condition means, in words'))
          .default({}),
        image_path: z
          .array(
            z.union([
              text('a key'),
              z.object({ name: text('a list item name') }).strict(),
            ]),
          )
          .min(1, 'image_path must lead to the serving image'),
        // The routing's own objects as their controllers judge them (KServe's Ready does not see
        // them): a condition of this type (with this status, when given) is a refusal.
        refusals: z
          .array(
            z
              .object({
                kind: text('a kind the routing renders, e.g. Backend').regex(
                  /^[A-Z][A-Za-z0-9]*$/,
                  'must be a kind, e.g. Backend',
                ),
                condition: text('a condition type, e.g. Accepted'),
                status: z
                  .enum(['True', 'False', 'Unknown'], {
                    errorMap: () => ({
                      message:
                        'status must be True, False or Unknown (quote it in YAML: "False")',
                    }),
                  })
                  .optional(),
                // Not rendered: made by a controller from the model's object of this kind (same
                // name and namespace), read at api_version.
                made_from: text(
                  'the rendered kind its controller makes it from, e.g. AIGatewayRoute',
                )
                  .regex(
                    /^[A-Z][A-Za-z0-9]*$/,
                    'must be a kind, e.g. AIGatewayRoute',
                  )
                  .optional(),
                api_version: text(
                  'the apiVersion of the made object, e.g. gateway.networking.k8s.io/v1',
                )
                  .regex(
                    /^([a-z0-9.-]+\/)?v[0-9]+[a-z0-9]*$/,
                    'must be an apiVersion, group/version or v1, e.g. gateway.networking.k8s.io/v1',
                  )
                  .optional(),
                // Gateway API route status: the condition is per parent Gateway.
                per_parent: z
                  .boolean({
                    errorMap: () => ({
                      message:
                        'per_parent must be true or false: whether the condition is in status.parents[].conditions',
                    }),
                  })
                  .optional(),
              })
              .strict()
              .superRefine((r, ctx) => {
                if (
                  (r.made_from === undefined) !==
                  (r.api_version === undefined)
                )
                  ctx.addIssue({
                    code: z.ZodIssueCode.custom,
                    path: [
                      r.made_from === undefined ? 'api_version' : 'made_from',
                    ],
                    message:
                      'made_from and api_version go together: an object a controller makes is read at its apiVersion',
                  });
              }),
          )
          .default([]),
      })
      .strict(),
    // The plumbing keys of this engine: type, default, required (see plumbing.ts).
    plumbing: plumbingSchema,
    // Where clients call a model, per routing value (see endpoints.ts).
    endpoints: endpointsSchema,
    // Known messages of the engine in logs, Events and conditions: what each means and the fix.
    diagnosis: z.array(signatureSchema).default([]),
  })
  .strict();
export type EngineProfileFile = z.infer<typeof engineProfileSchema>;

/** `flag_kinds: { boolean: [--x], value: [--y] }` -> `{ '--x': 'boolean', '--y': 'value' }`. */
function flagKindsOf(
  kinds: EngineProfileFile['flag_kinds'],
): Record<string, FlagKind> {
  const byFlag: Record<string, FlagKind> = {};
  for (const kind of ['boolean', 'store_true', 'value'] as const) {
    for (const f of kinds[kind]) byFlag[f] = kind;
  }
  return byFlag;
}

/** The checked YAML profile as the code reads it. */
export function toEngineProfile(
  file: string,
  p: EngineProfileFile,
): EngineProfile {
  return {
    file,
    engine: p.engine,
    versioned: p.versioned,
    objects: p.objects.map(o => ({
      template: o.template,
      servingRuntime: o.serving_runtime,
      apply: o.apply,
      ...(o.progress ? { progress: o.progress } : {}),
    })),
    routing: p.routing,
    routingValues: p.routing_values,
    controllerGateway: Object.fromEntries(
      Object.entries(p.controller_gateway).map(([routing, g]) => {
        const [namespace, name] = g.default.split('/');
        return [
          routing,
          { configMap: g.config_map, default: { namespace, name } },
        ];
      }),
    ),
    controllerKinds: Object.fromEntries(
      Object.entries(p.controller_kinds).map(([routing, kinds]) => [
        routing,
        kinds.map(k => ({ apiVersion: k.api_version, kind: k.kind })),
      ]),
    ),
    controllerTls: Object.fromEntries(
      Object.entries(p.controller_tls).map(([routing, t]) => [
        routing,
        { configMap: t.config_map },
      ]),
    ),
    gatewayClass: Object.fromEntries(
      Object.entries(p.gateway_class).map(([routing, c]) => [
        routing,
        {
          controller: c.controller,
          controllerName: c.controller_name,
          ...(c.config_map && c.format
            ? { configMap: c.config_map, format: c.format }
            : {}),
        },
      ]),
    ),
    gatewayConfig: Object.fromEntries(
      Object.entries(p.gateway_config).map(([routing, needs]) => [
        routing,
        needs.map(n => ({
          controller: n.controller,
          configMap: n.config_map,
          format: n.format,
          ...(n.must_be !== undefined ? { mustBe: n.must_be } : {}),
          ...(n.must_be_set ? { mustBeSet: true as const } : {}),
          ...(n.unset !== undefined ? { unset: n.unset } : {}),
          neededFor: n.needed_for,
          ...(n.how !== undefined ? { how: n.how } : {}),
        })),
      ]),
    ),
    kvCacheEnv: p.kv_cache?.env,
    kvCacheMaxShareOfMemory: p.kv_cache?.max_share_of_memory,
    kvCacheNoGeneration: p.kv_cache?.no_generation ?? [],
    moeOnlyFlags: p.moe_only_flags,
    flagAliases: p.flag_aliases,
    flagUnderscoreIsDash: p.flag_underscore_is_dash,
    flagEqualsValue: p.flag_equals_value,
    flagKinds: flagKindsOf(p.flag_kinds),
    flagAbbreviations: p.flag_abbreviations,
    argsHint: p.args_hint,
    convertsWeights: p.weights !== undefined,
    converter: p.weights?.converter,
    irRepoPrefix: p.weights?.ir_repo_prefix,
    irFormat: p.weights?.ir_format,
    irRepoRefusal: p.weights?.ir_refusal,
    downloadArgs: p.weights?.download_args ?? [],
    weightFormats: p.weights?.formats ?? [],
    weightsPath: p.weights?.path,
    downloadTasks: p.weights?.tasks ?? {},
    defaultDownloadTask: p.weights?.default_task,
    downloadEnv: p.download?.env ?? [],
    downloadInitContainer: p.download?.init_container,
    nameSuffixes: p.name_suffixes,
    apiOperations: p.api.operations,
    apiImageInput: p.api.image_input,
    status: {
      conditions: p.status.conditions,
      explain: p.status.explain,
      imagePath: p.status.image_path,
      refusals: p.status.refusals.map(r => ({
        kind: r.kind,
        condition: r.condition,
        ...(r.status !== undefined ? { status: r.status } : {}),
        ...(r.made_from !== undefined
          ? { madeFrom: r.made_from, apiVersion: r.api_version }
          : {}),
        ...(r.per_parent ? { perParent: true } : {}),
      })),
    },
    plumbing: p.plumbing,
    endpoints: toEndpointRules(p.endpoints),
    plumbingKeys: Object.keys(p.plumbing),
    requiredPlumbing: Object.keys(p.plumbing).filter(
      k => p.plumbing[k].required,
    ),
    signatures: p.diagnosis,
  };
}
