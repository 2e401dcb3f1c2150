/** The answers of `GET /models` and `GET /models/:name`. */
import { z } from 'zod';

/** What the API says about a model (the full resolution is under `/models/:name/resolved`). */
export const modelSummarySchema = z.object({
  name: z.string(),
  modelId: z.string(),
  description: z.string().optional(),
  displayName: z.string().optional(),
  category: z.string(),
  runtime: z.string(),
  /** The server object: `LLMInferenceService` or `InferenceService`. */
  kind: z.string(),
  /** The resolved runtime version; absent for a flat (unversioned) runtime. */
  version: z.string().optional(),
  /** The layer that set the version: `model` (pinned) or `runtime-default`. */
  versionSource: z.string().optional(),
  /** `server.server_version` as written in models.yaml. */
  pinnedVersion: z.string().optional(),
  image: z.string(),
  moe: z.boolean(),
  weightFormat: z.string().optional(),
  owner: z.string().optional(),
  lifecycle: z.string().optional(),
  system: z.string().optional(),
  tags: z.array(z.string()),
});

/** The distinct values of the whole served catalog, for filter choices. */
export const modelFacetsSchema = z.object({
  runtimes: z.array(z.string()),
  versions: z.array(z.string()),
  categories: z.array(z.string()),
  owners: z.array(z.string()),
});

/**
 * The answer of `GET /models`. It carries an `ETag` (the served catalog and the query); a request
 * with a matching `If-None-Match` answers 304 with no body.
 */
export const modelListResponseSchema = z.object({
  /** The page (every match without `limit`). */
  items: z.array(modelSummarySchema),
  /** How many models match the filters, over all pages. */
  total: z.number().int(),
  offset: z.number().int(),
  /** As asked; absent when every match is in `items`. */
  limit: z.number().int().optional(),
  facets: modelFacetsSchema,
});
