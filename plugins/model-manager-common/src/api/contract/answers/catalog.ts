/**
 * The answers of the catalog endpoints: `/health`, `/status`, `/runtimes`, `/clusters` and
 * `/models/:name/render`.
 */
import { z } from 'zod';
import type { EnvMap } from '../../../schema/modelsFileSchema';
import {
  catalogProblemSchema,
  renderedObjectSchema,
  secretKeyRefSchema,
} from './common';

/** The answer of `GET /health`. */
export const healthResponseSchema = z.object({ status: z.literal('ok') });

/**
 * The answer of `GET /status`: whether the last load of models.yaml worked (when not, the last
 * good catalog is served) and the size of the catalog served.
 */
export const catalogStatusSchema = z.object({
  ok: z.boolean(),
  /** When the last load ran (ISO 8601). */
  at: z.string(),
  /** Why the last load failed, one problem a line. */
  message: z.string().optional(),
  /** The problems of a failed load, each naming file:line:col and the dotted path. */
  problems: z.array(catalogProblemSchema).optional(),
  /** How many models and runtimes the served (last good) catalog has; 0 when none ever loaded. */
  models: z.number().int(),
  runtimes: z.number().int(),
});

/**
 * An env map as models.yaml writes it: `null` removes an inherited variable. Typed as models.yaml's
 * EnvMap; its values passed models.yaml's check, so they are text, `null` or a Secret reference.
 */
const envMapSchema: z.ZodType<EnvMap> = z.record(
  z.string(),
  z.union([z.string(), z.null(), secretKeyRefSchema]),
);

/** A category's defaults as models.yaml writes them (`cpu: 2`, `memory: 8Gi`, ...). */
const categoryDefaultsSchema = z.object({
  cpu: z.union([z.string(), z.number()]).optional(),
  memory: z.union([z.string(), z.number()]).optional(),
  kv_cache_gb: z.number().optional(),
  weight_format: z.string().optional(),
});

/**
 * A plumbing value: a scalar of values.yaml or models.yaml (typed `unknown`: what each key holds
 * is the engine profile's to say).
 */
const plumbingValueSchema: z.ZodType<unknown> = z.union([
  z.string(),
  z.number(),
  z.boolean(),
]);

/** One runtime with its versions (default marked), common env, categories, plumbing and models. */
export const runtimeSummarySchema = z.object({
  name: z.string(),
  /** The server object the runtime's models become, e.g. `InferenceService`. */
  kind: z.string(),
  /** Whether the runtime has a `versions:` axis. */
  versioned: z.boolean(),
  defaultVersion: z.string().optional(),
  versions: z.array(
    z.object({
      version: z.string(),
      image: z.string(),
      default: z.boolean(),
      env: envMapSchema,
      args: z.array(z.string()),
    }),
  ),
  env: envMapSchema,
  categories: z.array(
    z.object({
      name: z.string(),
      defaults: categoryDefaultsSchema,
      env: envMapSchema,
      args: z.array(z.string()),
    }),
  ),
  /** Each plumbing key with its value and where it was set (`file:line:col path`). */
  plumbing: z.record(
    z.string(),
    z.object({ value: plumbingValueSchema, source: z.string() }),
  ),
  /** The ClusterServingRuntime manifest the runtime names, when it names one. */
  servingRuntime: z
    .object({ file: z.string(), name: z.string().optional() })
    .optional(),
  /** The models that run on it. */
  models: z.array(z.string()),
});

/** The answer of `GET /runtimes` (`GET /runtimes/:name` answers one runtime). */
export const runtimeListResponseSchema = z.object({
  items: z.array(runtimeSummarySchema),
});

/** One cluster models can be deployed to, in the answer of `GET /clusters`. */
export const clusterSummarySchema = z.object({
  name: z.string(),
  /** The Kubernetes API server URL. */
  url: z.string(),
  /** Where it was configured: `kubernetes.clusterLocatorMethods` or a kubeconfig. */
  source: z.enum(['config', 'kubeconfig']),
  /** The base URL clients reach the cluster's AI gateway at, when configured. */
  gatewayBaseUrl: z.string().optional(),
  /** The only namespaces models may go to; absent: any namespace. */
  namespaces: z.array(z.string()).optional(),
});

/** The answer of `GET /clusters`. */
export const clusterListResponseSchema = z.object({
  items: z.array(clusterSummarySchema),
});

/** The answer of `POST /models/:name/render`: the objects a deploy would apply, in order. */
export const renderResponseSchema = z.object({
  items: z.array(renderedObjectSchema),
});
