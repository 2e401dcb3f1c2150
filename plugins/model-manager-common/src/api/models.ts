/**
 * `GET /models`: the models of the served catalog, filtered, sorted and paged on the server.
 * Shared by the backend router, the frontend client, the scaffolder and the CLI.
 */

/** What the API says about a model (the full resolution is under `/models/:name/resolved`). */
export type ModelSummary = {
  name: string;
  modelId: string;
  description?: string;
  displayName?: string;
  category: string;
  runtime: string;
  /** The server object: `LLMInferenceService` or `InferenceService`. */
  kind: string;
  /** The resolved runtime version; absent for a flat (unversioned) runtime. */
  version?: string;
  /** The layer that set the version: `model` (pinned) or `runtime-default`. */
  versionSource?: string;
  /** `server.server_version` as written in models.yaml. */
  pinnedVersion?: string;
  image: string;
  moe: boolean;
  weightFormat?: string;
  owner?: string;
  lifecycle?: string;
  system?: string;
  tags: string[];
};

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
export type ModelFacets = {
  runtimes: string[];
  versions: string[];
  categories: string[];
  owners: string[];
};

/**
 * The answer of `GET /models`. It carries an `ETag` (the served catalog and the query); a request
 * with a matching `If-None-Match` answers 304 with no body.
 */
export type ModelListResponse = {
  /** The page (every match without `limit`). */
  items: ModelSummary[];
  /** How many models match the filters, over all pages. */
  total: number;
  offset: number;
  /** As asked; absent when every match is in `items`. */
  limit?: number;
  facets: ModelFacets;
};
