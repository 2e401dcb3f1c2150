/**
 * REST shapes of the catalog endpoints (`/status`, `/runtimes`, `/clusters`, `/models/:name/resolved`,
 * `/models/:name/render`, `/models/:name/rollback`, `/models/:name/deployments`) and of the error
 * bodies, shared by the backend router, the scaffolder module's client, the frontend client and
 * the CLI's portal client.
 */
import type { z } from 'zod';
import type { rollbackRequestSchema } from './contract/schemas';
import type {
  catalogStatusSchema,
  clusterListResponseSchema,
  healthResponseSchema,
  renderResponseSchema,
  runtimeListResponseSchema,
  runtimeSummarySchema,
} from './contract/answers/catalog';
import type { resolveResponseSchema } from './contract/answers/resolved';
import type { deploymentHistoryResponseSchema } from './contract/answers/deployments';
import type { DeploymentResult } from './types';

/** The answer of `GET /health`. */
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/**
 * The answer of `GET /status`: whether the last load of models.yaml worked (when not, the last
 * good catalog is served) and the size of the catalog served.
 */
export type CatalogStatus = z.infer<typeof catalogStatusSchema>;

/** One runtime with its versions (default marked), common env, categories, plumbing and models. */
export type RuntimeSummary = z.infer<typeof runtimeSummarySchema>;

/** The answer of `GET /runtimes` (`GET /runtimes/:name` answers one {@link RuntimeSummary}). */
export type RuntimeListResponse = z.infer<typeof runtimeListResponseSchema>;

/** The answer of `GET /clusters`. */
export type ClusterListResponse = z.infer<typeof clusterListResponseSchema>;

/**
 * The answer of `GET /models/:name/resolved?serverVersion=&env=K=V&arg=A`: the resolved server
 * with each value's origin, and the same flattened into rows.
 */
export type ResolveResponse = z.infer<typeof resolveResponseSchema>;

/** The answer of `POST /models/:name/render`. */
export type RenderResponse = z.infer<typeof renderResponseSchema>;

/** The body of `POST /models/:name/rollback` (schema: rollbackRequestSchema). */
export type RollbackRequest = z.infer<typeof rollbackRequestSchema>;

/** The answer of `GET /models/:name/deployments`, newest first. */
export type DeploymentHistoryResponse = z.infer<
  typeof deploymentHistoryResponseSchema
>;

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
