import type {
  DiffResult,
  PreflightFailedResponse,
  PreflightResponse,
} from '@model-manager/plugin-model-manager-common';
import type { Request, Router } from 'express';
import { PreflightFailedError } from '../preflight';
import { deployRequestSchema, targetQuerySchema } from '../service';
import { callerOf, overridesFromQuery, parse, sendDeployment } from './http';
import type { RouterOptions } from './types';

/** Deploy, and what a deploy would meet: its preflight checks, its changes to live objects. */
export function deployRoutes(
  router: Router,
  { service, httpAuth }: RouterOptions,
) {
  router.post('/models/:name/deploy', async (req, res) => {
    const body = parse(deployRequestSchema, req.body, 'deploy request');
    try {
      sendDeployment(
        res,
        await service.deploy(req.params.name, body, callerOf(httpAuth, req)),
      );
    } catch (e) {
      // Refused by preflight (audited as failed): 409 with every check.
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
    res.json(
      (await service.preflight(
        req.params.name,
        { cluster, namespace },
        overridesFromQuery(rest as Request['query']),
        callerOf(httpAuth, req),
      )) satisfies PreflightResponse,
    );
  });

  router.get('/models/:name/diff', async (req, res) => {
    const { cluster, namespace, ...rest } = parse(
      targetQuerySchema.passthrough(),
      req.query,
      'diff request',
    );
    res.json(
      (await service.diff(
        req.params.name,
        { cluster, namespace },
        overridesFromQuery(rest as Request['query']),
        callerOf(httpAuth, req),
      )) satisfies DiffResult,
    );
  });
}
