import type {
  DiffResult,
  PreflightFailedResponse,
  PreflightResponse,
} from '@model-manager/plugin-model-manager-common';
import type { Request, Router } from 'express';
import { PreflightFailedError } from '../preflight';
import { modelManagerContract as api } from '@model-manager/plugin-model-manager-common';
import { callerOf, overridesFromQuery, parse, sendDeployment } from './http';
import type { RouterOptions } from './types';

/** Deploy, and what a deploy would meet: its preflight checks, its changes to live objects. */
export function deployRoutes(
  router: Router,
  { service, httpAuth }: RouterOptions,
) {
  router.post(api.deploy.path, async (req, res) => {
    const body = parse(api.deploy.body, req.body, 'deploy request');
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

  router.get(api.preflight.path, async (req, res) => {
    const { cluster, namespace, ...rest } = parse(
      api.preflight.query,
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

  router.get(api.diff.path, async (req, res) => {
    const { cluster, namespace, ...rest } = parse(
      api.diff.query,
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
