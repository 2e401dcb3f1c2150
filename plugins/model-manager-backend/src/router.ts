import type {
  AuditorService,
  BackstageCredentials,
  HttpAuthService,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { InputError, NotAllowedError } from '@backstage/errors';
import type { ResourcePermission } from '@backstage/plugin-permission-common';
import {
  modelDeployPermission,
  modelRenderPermission,
  modelUndeployPermission,
  parseEnvSecret,
  type CatalogStatus,
  type ClusterListResponse,
  type DeploymentFailedResponse,
  type DeploymentHistoryResponse,
  type DeploymentResult,
  type DiffResult,
  type FleetResponse,
  type HealthResponse,
  type ModelListResponse,
  type ModelStatusResponse,
  type RevisionDiff,
  type ModelSummary,
  type PreflightFailedResponse,
  type PreflightResponse,
  type RenderResponse,
  type ResolveResponse,
  type RolloutApplyResult,
  type RolloutPlan,
  type RuntimeListResponse,
  type RuntimeSummary,
  type ServerOverrides,
} from '@model-manager/plugin-model-manager-common';
import express, { type Request, type Response } from 'express';
import Router from 'express-promise-router';
import type { z } from 'zod';
import type { FleetService } from './fleet';
import { revisionDiff, withSync } from './sync';
import type { FailureKind } from './kubernetes/types';
import type { ModelAuthorizer } from './permissions';
import { redactRefusedQuery } from './redactRefusedQuery';
import { PreflightFailedError } from './preflight';
import {
  deployRequestSchema,
  describeZodError,
  fleetQuerySchema,
  modelListQuerySchema,
  rolloutApplyRequestSchema,
  rolloutPlanQuerySchema,
  renderRequestSchema,
  rollbackRequestSchema,
  targetQuerySchema,
  type ModelManagerService,
} from './service';

export interface RouterOptions {
  service: ModelManagerService;
  fleet: FleetService;
  httpAuth: HttpAuthService;
  /** The deploy/undeploy/GitOps render checks, with the model's entity ref. */
  authorizer: ModelAuthorizer;
  auditor: AuditorService;
  logger: LoggerService;
  /** Send Impersonate-User with the signed-in user's entity ref. */
  impersonateUser: boolean;
}

const FAILURE_STATUS: Record<FailureKind, number> = {
  conflict: 409,
  invalid: 422,
  forbidden: 403,
  'not-found': 404,
  unavailable: 503,
};

function parse<T extends z.ZodTypeAny>(
  schema: T,
  value: unknown,
  what: string,
): z.infer<T> {
  const result = schema.safeParse(value ?? {});
  if (!result.success)
    throw new InputError(`invalid ${what}: ${describeZodError(result.error)}`);
  return result.data;
}

/** Whether an If-None-Match header (`*`, or a list of tags, weak or strong) matches `etag`. */
function matchesETag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some(tag => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/**
 * `?env=K=V&env=K2=V2&envSecret=HF_TOKEN=hf-token/token&arg=--x=1&serverVersion=0.24.0` ->
 * overrides (envSecret: a Secret reference, secret/key).
 */
function overridesFromQuery(query: Request['query']): ServerOverrides {
  const list = (v: unknown) =>
    (v === undefined ? [] : Array.isArray(v) ? v : [v]).map(String);
  const overrides: ServerOverrides = {};
  if (query.serverVersion !== undefined)
    overrides.serverVersion = String(query.serverVersion);
  const env = list(query.env);
  if (env.length > 0) {
    overrides.env = {};
    for (const item of env) {
      const eq = item.indexOf('=');
      if (eq <= 0)
        throw new InputError(`invalid env '${item}': expected NAME=value`);
      overrides.env[item.slice(0, eq)] = item.slice(eq + 1);
    }
  }
  for (const item of list(query.envSecret)) {
    const parsed = parseEnvSecret(item);
    if ('problem' in parsed) throw new InputError(`invalid ${parsed.problem}`);
    overrides.env = { ...overrides.env, [parsed.name]: parsed.ref };
  }
  const args = list(query.arg);
  if (args.length > 0) overrides.args = args;
  return overrides;
}

export async function createRouter(
  options: RouterOptions,
): Promise<express.Router> {
  const { service, httpAuth, authorizer, auditor } = options;
  const router = Router();
  router.use(express.json({ limit: '4mb' }));
  // body-parser's errors carry an HTTP status but no message a user can act on.
  router.use(
    (err: any, _req: Request, _res: Response, next: (e?: unknown) => void) => {
      if (err?.type === 'entity.parse.failed')
        next(
          new InputError(
            `invalid request body: it must be a JSON object (${err.message})`,
          ),
        );
      else if (err?.type === 'entity.too.large')
        next(
          new InputError(`invalid request body: larger than the 4 MB allowed`),
        );
      else next(err);
    },
  );

  const principal = (credentials: BackstageCredentials) =>
    credentials.principal as {
      type: string;
      userEntityRef?: string;
      subject?: string;
    };
  const actorOf = (credentials: BackstageCredentials) => {
    const p = principal(credentials);
    return p.type === 'user'
      ? p.userEntityRef!
      : `service:${p.subject ?? 'unknown'}`;
  };
  const impersonation = (credentials: BackstageCredentials) =>
    options.impersonateUser && principal(credentials).type === 'user'
      ? actorOf(credentials)
      : undefined;

  /**
   * Audit event and permission check with the model's entity ref; on deny, a failed audit event
   * and a 403 naming who, what and why. Returns the event for the caller to close.
   */
  async function authorizeOrThrow(
    req: Request,
    eventId: string,
    permission: ResourcePermission<'catalog-entity'>,
    meta: Record<string, any> & { model: string },
  ) {
    const credentials = await httpAuth.credentials(req, {
      allow: ['user', 'service'],
    });
    const actor = actorOf(credentials);
    const event = await auditor.createEvent({
      eventId,
      severityLevel: 'medium',
      request: req,
      meta: { ...meta, actor },
    });
    const [denial] = await authorizer.denials(
      permission,
      [meta.model],
      credentials,
      actor,
    );
    if (denial) {
      const error = new NotAllowedError(denial.message);
      await event.fail({ error, meta: { outcome: 'denied' } });
      throw error;
    }
    return { event, credentials };
  }

  /**
   * Runs a cluster-changing operation on `model`: audit event, permission check with the model's
   * entity ref (403 naming the permission and why, and a failed audit event, on deny), then the
   * operation; a failed outcome answers with the status of its first failure and the per-object
   * results.
   */
  async function guarded(
    req: Request,
    res: Response,
    eventId: string,
    permission: ResourcePermission<'catalog-entity'>,
    meta: Record<string, any> & { model: string },
    run: (credentials: BackstageCredentials) => Promise<DeploymentResult>,
  ) {
    const { event, credentials } = await authorizeOrThrow(
      req,
      eventId,
      permission,
      meta,
    );
    let result: DeploymentResult;
    try {
      result = await run(credentials);
    } catch (e) {
      await event.fail({ error: e as Error });
      throw e;
    }
    const auditMeta = {
      revision: result.revision,
      action: result.action,
      objects: result.objects.map(o => `${o.kind}/${o.name}:${o.action}`),
    };
    if (result.ok) {
      await event.success({ meta: auditMeta });
      res.json(result satisfies DeploymentResult);
    } else {
      await event.fail({
        error: new Error(result.message ?? 'failed'),
        meta: auditMeta,
      });
      res.status(FAILURE_STATUS[result.failure ?? 'unavailable']).json({
        error: {
          name: 'DeploymentFailedError',
          message: result.message ?? 'the deploy failed',
        },
        deployment: result,
      } satisfies DeploymentFailedResponse);
    }
  }

  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' } satisfies HealthResponse);
  });

  router.get('/status', (_req, res) => {
    res.json(service.catalogStatus() satisfies CatalogStatus);
  });

  // Filtered, sorted and paged from summaries computed once per catalog load. The ETag names the
  // served catalog and the query: a client polling an unchanged catalog gets a 304 and no body.
  router.get('/models', (req, res) => {
    const query = parse(modelListQuerySchema, req.query, 'models query');
    const index = service.modelIndex();
    const etag = index.etag(query);
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'private, no-cache');
    if (matchesETag(req.headers['if-none-match'], etag)) {
      res.status(304).end();
    } else if (Object.keys(query).length === 0) {
      res.type('application/json').send(index.fullListJson());
    } else {
      res.json(index.query(query) satisfies ModelListResponse);
    }
  });

  router.get('/models/:name', (req, res) => {
    res.json(service.getModel(req.params.name) satisfies ModelSummary);
  });

  router.get('/runtimes', (_req, res) => {
    res.json({ items: service.listRuntimes() } satisfies RuntimeListResponse);
  });

  router.get('/runtimes/:name', (req, res) => {
    res.json(service.getRuntime(req.params.name) satisfies RuntimeSummary);
  });

  router.get('/clusters', (_req, res) => {
    res.json({ items: service.listClusters() } satisfies ClusterListResponse);
  });

  router.get('/models/:name/resolved', (req, res) => {
    res.json(
      service.resolve(
        req.params.name,
        overridesFromQuery(req.query),
      ) satisfies ResolveResponse,
    );
  });

  router.post('/models/:name/render', async (req, res) => {
    const body = parse(renderRequestSchema, req.body, 'render request');
    const { namespace = 'default', cluster, ...overrides } = body;
    const model = req.params.name;
    const items = service.render(model, overrides, namespace);
    // Without a cluster: the preview (the Serving tab's manifests), open to every signed-in user
    // as /models/:name/resolved is. For a cluster (the GitOps render, what the
    // model-manager:render action asks): the same cluster and namespace checks as a deploy, so a
    // pull request never proposes what the portal would refuse to apply, then
    // model-manager.model.render on the model's entity, audited (docs/security.md).
    if (cluster !== undefined) {
      service.checkTarget({ cluster, namespace });
      const { event } = await authorizeOrThrow(
        req,
        'model-render',
        modelRenderPermission,
        { model, cluster, namespace },
      );
      await event.success({ meta: { objects: items.length } });
    }
    res.json({ items } satisfies RenderResponse);
  });

  router.post('/models/:name/deploy', async (req, res) => {
    const body = parse(deployRequestSchema, req.body, 'deploy request');
    const {
      cluster,
      namespace,
      dryRun = false,
      force = false,
      rollout,
      skipPreflight = false,
      ...overrides
    } = body;
    const model = req.params.name;
    // Resolve and check the target first: bad input never reaches a cluster, nor the audit log.
    service.checkDeploy(model, overrides, { cluster, namespace }, rollout);
    try {
      await guarded(
        req,
        res,
        'model-deploy',
        modelDeployPermission,
        {
          model,
          cluster,
          namespace,
          dryRun,
          ...(rollout ? { rollout } : {}),
          ...(skipPreflight ? { skipPreflight } : {}),
        },
        credentials =>
          service.deploy(model, {
            cluster,
            namespace,
            overrides,
            dryRun,
            force,
            rollout,
            skipPreflight,
            actor: actorOf(credentials),
            impersonateUser: impersonation(credentials),
          }),
      );
    } catch (e) {
      // Refused by preflight (audited as failed by `guarded`): 409 with every check.
      if (!(e instanceof PreflightFailedError)) throw e;
      res.status(409).json({
        error: { name: 'PreflightFailedError', message: e.message },
        checks: e.checks,
      } satisfies PreflightFailedResponse);
    }
  });

  router.get('/models/:name/preflight', async (req, res) => {
    const { cluster, namespace, ...rest } = parse(
      targetQuerySchema.passthrough(),
      req.query,
      'preflight request',
    );
    const credentials = await httpAuth.credentials(req, {
      allow: ['user', 'service'],
    });
    res.json(
      (await service.preflight(
        req.params.name,
        { cluster, namespace },
        overridesFromQuery(rest as Request['query']),
        impersonation(credentials),
      )) satisfies PreflightResponse,
    );
  });

  router.post('/models/:name/rollback', async (req, res) => {
    const body = parse(rollbackRequestSchema, req.body, 'rollback request');
    const model = req.params.name;
    service.getModel(model);
    await guarded(
      req,
      res,
      'model-rollback',
      modelDeployPermission,
      { model, revision: body.revision },
      credentials =>
        service.rollback(model, body.revision, {
          dryRun: body.dryRun ?? false,
          force: body.force ?? false,
          actor: actorOf(credentials),
          impersonateUser: impersonation(credentials),
        }),
    );
  });

  router.delete('/models/:name/deployment', async (req, res) => {
    const target = parse(
      targetQuerySchema.omit({ serverVersion: true }),
      req.query,
      'undeploy request',
    );
    const model = req.params.name;
    service.getModel(model);
    service.checkTarget(target);
    await guarded(
      req,
      res,
      'model-undeploy',
      modelUndeployPermission,
      { model, ...target },
      credentials =>
        service.undeploy(model, {
          ...target,
          actor: actorOf(credentials),
          impersonateUser: impersonation(credentials),
        }),
    );
  });

  router.get('/models/:name/diff', async (req, res) => {
    const { cluster, namespace, ...rest } = parse(
      targetQuerySchema.passthrough(),
      req.query,
      'diff request',
    );
    const credentials = await httpAuth.credentials(req, {
      allow: ['user', 'service'],
    });
    res.json(
      (await service.diff(
        req.params.name,
        { cluster, namespace },
        overridesFromQuery(rest as Request['query']),
        impersonation(credentials),
      )) satisfies DiffResult,
    );
  });

  router.get('/models/:name/status', async (req, res) => {
    const credentials = await httpAuth.credentials(req, {
      allow: ['user', 'service'],
    });
    const status = await service.status(
      req.params.name,
      impersonation(credentials),
      { diagnose: req.query.diagnose === 'true' },
    );
    res.json(
      (await withSync(
        status,
        req.params.name,
        options.fleet,
      )) satisfies ModelStatusResponse,
    );
  });

  router.get('/fleet', async (req, res) => {
    await httpAuth.credentials(req, { allow: ['user', 'service'] });
    res.json(
      (await options.fleet.fleet(
        parse(fleetQuerySchema, req.query, 'fleet query'),
      )) satisfies FleetResponse,
    );
  });

  router.get('/models/:name/fleet', async (req, res) => {
    await httpAuth.credentials(req, { allow: ['user', 'service'] });
    const query = parse(fleetQuerySchema, req.query, 'fleet query');
    service.getModel(req.params.name);
    res.json(
      (await options.fleet.fleet({
        ...query,
        model: req.params.name,
      })) satisfies FleetResponse,
    );
  });

  router.get('/rollouts/plan', async (req, res) => {
    await httpAuth.credentials(req, { allow: ['user', 'service'] });
    res.json(
      (await options.fleet.plan(
        parse(rolloutPlanQuerySchema, req.query, 'rollout plan query'),
      )) satisfies RolloutPlan,
    );
  });

  // One batch of a rollout: one permission check for the batch (one request per model, with its
  // entity ref; any target denied refuses the batch before anything is applied), one audit event
  // and one history row per target.
  router.post('/rollouts/apply', async (req, res) => {
    const body = parse(rolloutApplyRequestSchema, req.body, 'rollout request');
    const credentials = await httpAuth.credentials(req, {
      allow: ['user', 'service'],
    });
    const actor = actorOf(credentials);
    const denials = await authorizer.denials(
      modelDeployPermission,
      body.targets.map(t => t.model),
      credentials,
      actor,
    );
    if (denials.length > 0) {
      const error = new NotAllowedError(
        `${denials
          .map(d => d.message)
          .join('; ')}; so may not roll out this batch (nothing was applied)`,
      );
      const event = await auditor.createEvent({
        eventId: 'model-rollout',
        severityLevel: 'medium',
        request: req,
        meta: {
          actor,
          runtime: body.runtime,
          rolloutId: body.rolloutId,
          targets: body.targets.length,
          denied: denials.map(d => d.model),
        },
      });
      await event.fail({ error, meta: { outcome: 'denied' } });
      throw error;
    }
    const result = await service.applyRollout(body, {
      actor,
      impersonateUser: impersonation(credentials),
      audit: async target => {
        if (target.outcome === 'already-applied') return;
        const event = await auditor.createEvent({
          eventId: 'model-rollout',
          severityLevel: 'medium',
          request: req,
          meta: {
            actor,
            model: target.model,
            cluster: target.cluster,
            namespace: target.namespace,
            runtime: body.runtime,
            version: body.version,
            rolloutId: body.rolloutId,
          },
        });
        if (target.outcome === 'applied')
          await event.success({ meta: { revision: target.revision } });
        else await event.fail({ error: new Error(target.message ?? 'failed') });
      },
    });
    res.json(result satisfies RolloutApplyResult);
  });

  // One history row against the revision before it and against live (the history dialog).
  router.get('/models/:name/deployments/:revision/diff', async (req, res) => {
    await httpAuth.credentials(req, { allow: ['user', 'service'] });
    const revision = Number(req.params.revision);
    if (!Number.isInteger(revision) || revision < 1)
      throw new InputError(
        `revision must be a positive whole number, got '${req.params.revision}'`,
      );
    res.json(
      (await revisionDiff({
        model: req.params.name,
        revision,
        history: m => service.history(m),
        fleet: options.fleet,
      })) satisfies RevisionDiff,
    );
  });

  router.get('/models/:name/deployments', async (req, res) => {
    res.json({
      items: await service.history(req.params.name),
    } satisfies DeploymentHistoryResponse);
  });

  router.use(redactRefusedQuery);
  return router;
}
