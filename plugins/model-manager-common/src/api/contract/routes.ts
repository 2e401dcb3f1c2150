import { z } from 'zod';
import {
  catalogStatusSchema,
  clusterListResponseSchema,
  deploymentHistoryResponseSchema,
  deploymentResultSchema,
  diffResultSchema,
  fleetResponseSchema,
  healthResponseSchema,
  modelListResponseSchema,
  modelStatusResponseSchema,
  modelSummarySchema,
  openApiDocumentSchema,
  preflightResponseSchema,
  pullRequestReadinessSchema,
  renderResponseSchema,
  resolveResponseSchema,
  revisionDiffSchema,
  rolloutApplyResultSchema,
  rolloutPlanSchema,
  runtimeListResponseSchema,
  runtimeSummarySchema,
} from './answers';
import {
  deployRequestSchema,
  deployTargetSchema,
  fleetQuerySchema,
  modelListQuerySchema,
  renderRequestSchema,
  rollbackRequestSchema,
  rolloutApplyRequestSchema,
  rolloutPlanQuerySchema,
  targetQuerySchema,
} from './schemas';

/** The `data` of a `fleet` event of `GET /fleet/events`: the clusters whose objects changed. */
export const fleetEventSchema = z.object({ clusters: z.array(z.string()) });
/** A `fleet` event of `GET /fleet/events`. */
export type FleetEvent = z.infer<typeof fleetEventSchema>;

/**
 * The overrides of the routes that resolve a model, as query parameters: `serverVersion`,
 * `env=NAME=value`, `envSecret=NAME=secret/key` and `arg=--flag`, each but the first repeatable
 * (`envQueryParams` writes them; the backend's `overridesFromQuery` reads them, with its own
 * messages, so the schema lets them through).
 */
const overridesQuerySchema = z
  .object({
    serverVersion: z.string().optional(),
    env: z.union([z.string(), z.array(z.string())]).optional(),
    envSecret: z.union([z.string(), z.array(z.string())]).optional(),
    arg: z.union([z.string(), z.array(z.string())]).optional(),
  })
  .passthrough();

/** One route of the REST API: what it reads (path parameters, query, body) and answers. */
export interface RouteContract<
  Path extends string = string,
  Query extends z.ZodTypeAny | undefined = z.ZodTypeAny | undefined,
  Body extends z.ZodTypeAny | undefined = z.ZodTypeAny | undefined,
  Answer = unknown,
> {
  method: 'GET' | 'POST' | 'DELETE';
  /** Express-style path under `/api/model-manager`, parameters as `:name`. */
  path: Path;
  summary: string;
  query?: Query;
  body?: Body;
  answer: z.ZodType<Answer>;
  /** Whether the route needs no credentials. */
  unauthenticated?: boolean;
  /**
   * A stream of Server-Sent Events (`text/event-stream`) instead of one JSON answer: events named
   * `name`, each `data:` line one JSON value of `data`.
   */
  events?: { name: string; typeName: string; data: z.ZodTypeAny };
}

/**
 * A route, its type kept exact (which of query and body it has, and their schemas). Its answer is
 * typed by what it parses to (`z.ZodType<answer>`), so the declared contract (and its API report)
 * spells each answer's shape once rather than the schema's zod classes.
 */
const route = <const R extends RouteContract>(
  r: R,
): {
  [K in keyof R]: K extends 'answer'
    ? z.ZodType<z.output<R[K]>, z.ZodTypeDef, unknown>
    : R[K];
} => r as any;

/**
 * The model-manager REST API, each route once: the backend validates requests with these schemas
 * and the one client (`ModelManagerRestClient`) builds its requests from them. The request types
 * (`DeployRequest`, `FleetQuery`, …) are inferred from the schemas.
 */
export const modelManagerContract = {
  health: route({
    method: 'GET',
    path: '/health',
    summary: 'Whether the backend answers.',
    answer: healthResponseSchema,
    unauthenticated: true,
  }),
  catalogStatus: route({
    method: 'GET',
    path: '/status',
    summary: 'Whether models.yaml loaded, and the size of the catalog served.',
    answer: catalogStatusSchema,
  }),
  listModels: route({
    method: 'GET',
    path: '/models',
    summary:
      'The models, filtered, sorted and paged (ETag; If-None-Match answers 304).',
    query: modelListQuerySchema,
    answer: modelListResponseSchema,
  }),
  getModel: route({
    method: 'GET',
    path: '/models/:name',
    summary: 'One model.',
    answer: modelSummarySchema,
  }),
  listRuntimes: route({
    method: 'GET',
    path: '/runtimes',
    summary: 'The runtimes.',
    answer: runtimeListResponseSchema,
  }),
  getRuntime: route({
    method: 'GET',
    path: '/runtimes/:name',
    summary: 'One runtime.',
    answer: runtimeSummarySchema,
  }),
  listClusters: route({
    method: 'GET',
    path: '/clusters',
    summary: 'The clusters models can be deployed to, and their namespaces.',
    answer: clusterListResponseSchema,
  }),
  resolve: route({
    method: 'GET',
    path: '/models/:name/resolved',
    summary: 'The model resolved with overrides, each value with its origin.',
    query: overridesQuerySchema,
    answer: resolveResponseSchema,
  }),
  render: route({
    method: 'POST',
    path: '/models/:name/render',
    summary:
      'The objects a deploy would apply; with a cluster, the GitOps render (checked and audited).',
    body: renderRequestSchema,
    answer: renderResponseSchema,
  }),
  deploy: route({
    method: 'POST',
    path: '/models/:name/deploy',
    summary:
      'Deploy: permission, audit, preflight, server-side apply, history. 409 with the checks when preflight refuses.',
    body: deployRequestSchema,
    answer: deploymentResultSchema,
  }),
  preflight: route({
    method: 'GET',
    path: '/models/:name/preflight',
    summary: 'Whether the target would accept and run the model.',
    query: targetQuerySchema.passthrough(),
    answer: preflightResponseSchema,
  }),
  pullRequestReadiness: route({
    method: 'GET',
    path: '/gitops/pull-request-readiness',
    summary:
      'Whether the portal could open a pull request on a repository (a GitHub token or App for its host); says whether credentials exist, never what they are.',
    query: z
      .object({
        repoUrl: z
          .string({
            required_error:
              'repoUrl is required: the repository as the template has it, e.g. github.com?owner=acme&repo=gitops',
          })
          .trim()
          .min(
            1,
            'repoUrl is required: the repository as the template has it, e.g. github.com?owner=acme&repo=gitops',
          ),
      })
      .strict(),
    answer: pullRequestReadinessSchema,
  }),
  diff: route({
    method: 'GET',
    path: '/models/:name/diff',
    summary: 'What a deploy with these overrides would change on live objects.',
    query: targetQuerySchema.passthrough(),
    answer: diffResultSchema,
  }),
  rollback: route({
    method: 'POST',
    path: '/models/:name/rollback',
    summary: 'Apply a revision that succeeded again, where it applied.',
    body: rollbackRequestSchema,
    answer: deploymentResultSchema,
  }),
  undeploy: route({
    method: 'DELETE',
    path: '/models/:name/deployment',
    summary: "Delete the model's own objects from one target.",
    query: deployTargetSchema,
    answer: deploymentResultSchema,
  }),
  status: route({
    method: 'GET',
    path: '/models/:name/status',
    summary:
      'The KServe status wherever the model is deployed, with endpoint, download, diagnosis and sync.',
    // Read as `diagnose === 'true'`: any other value is false.
    query: z.object({ diagnose: z.string().optional() }).passthrough(),
    answer: modelStatusResponseSchema,
  }),
  fleet: route({
    method: 'GET',
    path: '/fleet',
    summary: 'Every deployment target: live state, drift, outdated fields.',
    query: fleetQuerySchema,
    answer: fleetResponseSchema,
  }),
  fleetEvents: route({
    method: 'GET',
    path: '/fleet/events',
    summary:
      'Server-Sent Events: a `fleet` event soon after the watch cache sees clusters change (pushed, so pages read /fleet again instead of polling); 404 when the watch cache is off (modelManager.fleet.watch: false).',
    answer: fleetEventSchema,
    events: { name: 'fleet', typeName: 'FleetEvent', data: fleetEventSchema },
  }),
  modelFleet: route({
    method: 'GET',
    path: '/models/:name/fleet',
    summary: 'The deployment targets of one model.',
    query: fleetQuerySchema,
    answer: fleetResponseSchema,
  }),
  rolloutPlan: route({
    method: 'GET',
    path: '/rollouts/plan',
    summary: 'The targets a rollout would move, and those that stay and why.',
    query: rolloutPlanQuerySchema,
    answer: rolloutPlanSchema,
  }),
  rolloutApply: route({
    method: 'POST',
    path: '/rollouts/apply',
    summary:
      'One batch of a rollout: one permission check, an audit event and a history row per target.',
    body: rolloutApplyRequestSchema,
    answer: rolloutApplyResultSchema,
  }),
  revisionDiff: route({
    method: 'GET',
    path: '/models/:name/deployments/:revision/diff',
    summary: 'One history row against the revision before it and against live.',
    answer: revisionDiffSchema,
  }),
  history: route({
    method: 'GET',
    path: '/models/:name/deployments',
    summary: "The model's history, newest first.",
    answer: deploymentHistoryResponseSchema,
  }),
  openApi: route({
    method: 'GET',
    path: '/openapi.json',
    summary:
      'This API as an OpenAPI 3.0 document, generated from this contract.',
    answer: openApiDocumentSchema,
  }),
} as const;

/** The name of a route of {@link modelManagerContract}. */
export type RouteName = keyof typeof modelManagerContract;
