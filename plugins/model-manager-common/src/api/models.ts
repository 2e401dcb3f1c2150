/**
 * `GET /models`: the models of the served catalog, filtered, sorted and paged on the server.
 * Shared by the backend router, the frontend client, the scaffolder and the CLI.
 */
import type { z } from 'zod';
import type {
  modelFacetsSchema,
  modelListResponseSchema,
  modelSummarySchema,
} from './contract/answers/models';

/** What the API says about a model (the full resolution is under `/models/:name/resolved`). */
export type ModelSummary = z.infer<typeof modelSummarySchema>;

/** The fields `GET /models` sorts by; `-field` sorts descending. Ties are broken by name. */
export const MODEL_SORT_FIELDS = [
  'name',
  'modelId',
  'runtime',
  'category',
  'version',
  'owner',
] as const;
export type ModelSortField = (typeof MODEL_SORT_FIELDS)[number];
export type ModelSort = ModelSortField | `-${ModelSortField}`;

/** The most items one page of `GET /models` holds. */
export const MODEL_PAGE_LIMIT_MAX = 1000;

/**
 * The query of `GET /models`. Every filter is an exact match except `q`, a case-insensitive
 * substring of the name, model_id, display_name, description or a tag. Without `limit` the
 * answer holds every matching model (what the CLI and the scaffolder read).
 */
export type ModelListQuery = {
  runtime?: string;
  /** The resolved runtime version (pinned or the runtime's default_version). */
  version?: string;
  category?: string;
  owner?: string;
  q?: string;
  /** Default `name`. */
  sort?: ModelSort;
  /** 1 to MODEL_PAGE_LIMIT_MAX; absent: all. */
  limit?: number;
  /** Default 0. */
  offset?: number;
};

/** The distinct values of the whole served catalog, for filter choices. */
export type ModelFacets = z.infer<typeof modelFacetsSchema>;

/**
 * The answer of `GET /models`. It carries an `ETag` (the served catalog and the query); a request
 * with a matching `If-None-Match` answers 304 with no body (schema: modelListResponseSchema).
 */
export type ModelListResponse = z.infer<typeof modelListResponseSchema>;
