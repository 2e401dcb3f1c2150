import type { Router } from 'express';
import { rollbackRequestSchema, targetQuerySchema } from '../service';
import { callerOf, parse, sendDeployment } from './http';
import type { RouterOptions } from './types';

/** Taking a model back: to a revision it had (rollback), or off a target (undeploy). */
export function undeployRoutes(
  router: Router,
  { service, httpAuth }: RouterOptions,
) {
  router.post('/models/:name/rollback', async (req, res) => {
    const body = parse(rollbackRequestSchema, req.body, 'rollback request');
    sendDeployment(
      res,
      await service.rollback(req.params.name, body, callerOf(httpAuth, req)),
    );
  });

  router.delete('/models/:name/deployment', async (req, res) => {
    const target = parse(
      targetQuerySchema.omit({ serverVersion: true }),
      req.query,
      'undeploy request',
    );
    sendDeployment(
      res,
      await service.undeploy(req.params.name, target, callerOf(httpAuth, req)),
    );
  });
}
