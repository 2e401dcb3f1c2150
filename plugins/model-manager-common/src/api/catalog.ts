/**
 * REST shapes of the catalog endpoints (`/status`, `/runtimes`, `/clusters`, `/models/:name/resolved`,
 * `/models/:name/render`, `/models/:name/rollback`, `/models/:name/deployments`) and of the error
 * bodies, shared by the backend router, the scaffolder module's client, the frontend client and
 * the CLI's portal client.
 */
import type { ExplainRow } from '../resolver/explainServer';
import type { ResolvedServer } from '../resolver/types';
import type { RenderedObject } from '../renderer/types';
import type { CatalogProblem } from '../source/types';
import type { z } from 'zod';
import type { rollbackRequestSchema } from './contract/schemas';
import type {
  ClusterSummary,
  DeploymentHistoryItem,
  DeploymentResult,
} from './types';

/** The answer of `GET /health`. */
export type HealthResponse = { status: 'ok' };

/**
 * The answer of `GET /status`: whether the last load of models.yaml worked (when not, the last
 * good catalog is served) and the size of the catalog served.
 */
export type CatalogStatus = {
  ok: boolean;
  /** When the last load ran (ISO 8601). */
  at: string;
  /** Why the last load failed, one problem a line. */
  message?: string;
  /** The problems of a failed load, each naming file:line:col and the dotted path. */
  problems?: CatalogProblem[];
  /** How many models and runtimes the served (last good) catalog has; 0 when none ever loaded. */
  models: number;
  runtimes: number;
};

/** One runtime with its versions (default marked), common env, categories, plumbing and models. */
export type RuntimeSummary = {
  name: string;
  /** The server object the runtime's models become, e.g. `InferenceService`. */
  kind: string;
  /** Whether the runtime has a `versions:` axis. */
  versioned: boolean;
  defaultVersion?: string;
  versions: Array<{
    version: string;
    image: string;
    default: boolean;
    env: Record<string, unknown>;
    args: string[];
  }>;
  env: Record<string, unknown>;
  categories: Array<{
    name: string;
    defaults: Record<string, unknown>;
    env: Record<string, unknown>;
    args: string[];
  }>;
  /** Each plumbing key with its value and where it was set (`file:line:col path`). */
  plumbing: Record<string, { value: unknown; source: string }>;
  /** The ClusterServingRuntime manifest the runtime names, when it names one. */
  servingRuntime?: { file: string; name?: string };
  /** The models that run on it. */
  models: string[];
};

/** The answer of `GET /runtimes` (`GET /runtimes/:name` answers one {@link RuntimeSummary}). */
export type RuntimeListResponse = { items: RuntimeSummary[] };

/** The answer of `GET /clusters`. */
export type ClusterListResponse = { items: ClusterSummary[] };

/**
 * The answer of `GET /models/:name/resolved?serverVersion=&env=K=V&arg=A`: the resolved server
 * with each value's origin, and the same flattened into rows.
 */
export type ResolveResponse = {
  server: ResolvedServer;
  explain: ExplainRow[];
  /**
   * The OpenAI-compatible operations the model's category serves on its engine (profile
   * `api.operations`, e.g. `['chat', 'completions']`), for the client examples.
   */
  operations: string[];
};

/** The answer of `POST /models/:name/render`. */
export type RenderResponse = { items: RenderedObject[] };

/** The body of `POST /models/:name/rollback` (schema: rollbackRequestSchema). */
export type RollbackRequest = z.infer<typeof rollbackRequestSchema>;

/** The answer of `GET /models/:name/deployments`, newest first. */
export type DeploymentHistoryResponse = { items: DeploymentHistoryItem[] };

/** The body of every error answer (Backstage's error handler; see `@backstage/errors`). */
export type ErrorResponse = {
  error: { name: string; message: string };
};

/**
 * The body of a refused deploy, rollback or undeploy (409, 422, 403, 404 or 503): the error, and
 * the per-object results naming what was applied and what not.
 */
export type DeploymentFailedResponse = ErrorResponse & {
  error: { name: 'DeploymentFailedError' };
  deployment: DeploymentResult;
};
