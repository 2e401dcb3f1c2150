/**
 * Schemas of the values several answers share: JSON field values, the rendered objects, field
 * changes, a deploy's overrides and the origin of a resolved value.
 */
import { z } from 'zod';
import { LAYERS, type Layer } from '../../../resolver/layers';

/**
 * Where a model is deployed, (model, cluster, namespace): the fields every per-target answer
 * starts with (spread into its object schema).
 */
export const targetShape = {
  model: z.string(),
  cluster: z.string(),
  namespace: z.string(),
};

/** A JSON value (what a field of a Kubernetes object holds). */
export type JsonFieldValue =
  | string
  | number
  | boolean
  | null
  | JsonFieldValue[]
  | { [key: string]: JsonFieldValue };

export const jsonFieldValueSchema: z.ZodType<JsonFieldValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(jsonFieldValueSchema),
    z.record(z.string(), jsonFieldValueSchema),
  ]),
);

/**
 * A Kubernetes object as JSON: its fields are the API server's (open), so the object passes
 * through; `apiVersion` and `kind` are always there. Typed as the renderer's manifests are
 * (`Record<string, unknown>`).
 */
export const kubernetesManifestSchema: z.ZodType<Record<string, unknown>> = z
  .object({
    apiVersion: z.string(),
    kind: z.string(),
    metadata: z
      .object({ name: z.string().optional(), namespace: z.string().optional() })
      .passthrough()
      .optional(),
  })
  .passthrough();

/** A reference to a Secret's key: the value never passes through model-manager. */
export const secretKeyRefSchema = z.object({
  secretKeyRef: z.object({ name: z.string(), key: z.string() }),
});

/** An env value after resolution: text, or a reference to a Secret's key. */
export const envValueSchema = z.union([z.string(), secretKeyRefSchema]);

/** A deploy's overrides as recorded: `null` removed an inherited variable. */
export const recordedOverridesSchema = z.object({
  serverVersion: z.string().optional(),
  env: z
    .record(z.string(), z.union([z.string(), z.null(), secretKeyRefSchema]))
    .optional(),
  args: z.array(z.string()).optional(),
});

/** How the applier treats an object (see the renderer's ApplyPolicy). */
export const applyPolicySchema = z.enum([
  'apply',
  'create-if-absent',
  'recreate-when-immutable',
]);

/** One object a deploy applies, rendered from a template or a runtime's manifest. */
export const renderedObjectSchema = z.object({
  apiVersion: z.string(),
  kind: z.string(),
  name: z.string(),
  /** Absent for cluster-scoped objects. */
  namespace: z.string().optional(),
  applyPolicy: applyPolicySchema,
  /** The template or manifest file it came from. */
  source: z.string(),
  manifest: kubernetesManifestSchema,
});

/** One field that differs between what we render and what is live. */
export const fieldChangeSchema = z.object({
  /** e.g. `.spec.template.containers[name=main].image` */
  path: z.string(),
  /** Absent: the field is not rendered (it is only live). */
  rendered: jsonFieldValueSchema.optional(),
  /** Absent: the field is not live. */
  live: jsonFieldValueSchema.optional(),
});

/** Recorded actions. A rollout is a deploy made by `model-manager:rollout`. */
export const deploymentActionSchema = z.enum([
  'deploy',
  'dry-run',
  'rollback',
  'undeploy',
  'rollout',
]);

/** The field-level differences of one object between two versions of it. */
export const objectChangesSchema = z.object({
  kind: z.string(),
  name: z.string(),
  namespace: z.string().optional(),
  /** `added`: only in the newer one; `removed`: only in the older one. */
  change: z.enum(['changed', 'added', 'removed']),
  fields: z.array(fieldChangeSchema),
});

/** The layer that set a value (the resolver's LAYERS). */
export const layerSchema = z.enum(LAYERS.map(l => l.id) as [Layer, ...Layer[]]);

/** Where a value came from: the layer, the file and the dotted path (and line:col when known). */
export const originSchema = z.object({
  layer: layerSchema,
  file: z.string(),
  path: z.string(),
  line: z.number().int().optional(),
  col: z.number().int().optional(),
});

/** One problem of models.yaml or a runtime file, naming file:line:col and the dotted path. */
export const catalogProblemSchema = z.object({
  file: z.string(),
  line: z.number().int().optional(),
  col: z.number().int().optional(),
  path: z.string(),
  message: z.string(),
});

/**
 * `true` when a value of the engine's type `Sent` (what the backend sends) is a value of the
 * schema's type `Described`: the compile-time tie between an engine type kept beside the engine
 * code and the schema of the answer that carries it.
 */
export type Describes<Described, Sent> = [Sent] extends [Described]
  ? true
  : false;
