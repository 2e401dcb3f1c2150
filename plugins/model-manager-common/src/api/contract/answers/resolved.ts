/**
 * The schema of `GET /models/:name/resolved`: the resolver's ResolvedServer and its explanation
 * rows. The resolver's own types (resolver/types.ts, resolver/explainServer.ts) stay the engine's;
 * the checks at the end hold these schemas to them.
 */
import { z } from 'zod';
import type { ExplainRow } from '../../../resolver/explainServer';
import type { ResolvedServer } from '../../../resolver/types';
import {
  envValueSchema,
  layerSchema,
  originSchema,
  type Describes,
} from './common';

/** One earlier value a traced value replaced (`removed`: that layer removed it with `null`). */
const replacedSchema = <T extends z.ZodTypeAny>(value: T) =>
  z.object({ value, origin: originSchema, removed: z.boolean().optional() });

/** A value with the layer that set it and, oldest first, the values it replaced. */
const tracedSchema = <T extends z.ZodTypeAny>(value: T) =>
  z.object({
    value,
    origin: originSchema,
    overrode: z.array(replacedSchema(value)),
  });

const tracedText = tracedSchema(z.string());

export const resolvedServerSchema = z.object({
  model: z.string(),
  modelId: z.string(),
  category: z.string(),
  moe: z.boolean(),
  runtime: z.string(),
  kind: z.string(),
  /** Absent for flat runtimes (OpenVINO). */
  version: tracedText.optional(),
  image: tracedText,
  env: z.array(tracedSchema(envValueSchema).extend({ name: z.string() })),
  removedEnv: z.array(
    z.object({
      name: z.string(),
      origin: originSchema,
      overrode: z.array(replacedSchema(envValueSchema)),
    }),
  ),
  imagePullSecrets: z.array(tracedText).optional(),
  args: z.array(tracedText.extend({ flag: z.string(), key: z.string() })),
  resources: z.object({
    cpu: tracedText,
    memory: tracedText,
    kvCacheGb: tracedSchema(z.number()).optional(),
  }),
  weightFormat: tracedText.optional(),
  removed: z
    .array(
      z.object({
        key: z.string(),
        origin: originSchema,
        overrode: z.array(replacedSchema(z.union([z.string(), z.number()]))),
      }),
    )
    .optional(),
  /**
   * Each plumbing key the engine's profile declares, with its value's origin: text, or a whole
   * number for a key the profile types `integer` (a port).
   */
  plumbing: z.record(
    z.string(),
    tracedSchema(z.union([z.string(), z.number().int()])).optional(),
  ),
});

/** One line of an explanation: a value, the layer that set it, and what it replaced. */
export const explainRowSchema = z.object({
  key: z.string(),
  value: z.string(),
  layer: layerSchema,
  source: z.string(),
  overrode: z.array(
    z.object({
      value: z.string(),
      layer: layerSchema,
      source: z.string(),
      removed: z.boolean().optional(),
    }),
  ),
});

/** The answer of `GET /models/:name/resolved`. */
export const resolveResponseSchema = z.object({
  server: resolvedServerSchema,
  explain: z.array(explainRowSchema),
  /**
   * The OpenAI-compatible operations the model's category serves on its engine (profile
   * `api.operations`, e.g. `['chat', 'completions']`), for the client examples.
   */
  operations: z.array(z.string()),
});

/** What the resolver returns is what the schema describes (plumbing keys are the profile's). */
export const RESOLVED_SERVER_MATCHES_THE_RESOLVER: [
  Describes<z.infer<typeof resolvedServerSchema>, ResolvedServer>,
  Describes<z.infer<typeof explainRowSchema>, ExplainRow>,
] = [true, true];
