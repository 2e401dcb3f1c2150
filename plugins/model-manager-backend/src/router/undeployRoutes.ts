import type { Router } from 'express';
import { modelManagerContract as api } from '@model-manager/plugin-model-manager-common';
import { callerOf, parse, sendDeployment } from './http';
import type { RouterOptions } from './types';

/** Taking a model back: to a revision it had (rollback), or off a target (undeploy). */
export function undeployRoutes(
  router: Router,
  { service, httpAuth }: RouterOptions,
) {
  router.post(api.rollback.path, async (req, res) => {
    const body = parse(api.rollback.body, req.body, 'rollback request');
    sendDeployment(
      res,
      await service.rollback(req.params.name, body, callerOf(httpAuth, req)),
    );
  });

  router.delete(api.undeploy.path, async (req, res) => {
    const target = parse(api.undeploy.query, req.query, 'undeploy request');
    sendDeployment(
      res,
      await service.undeploy(req.params.name, target, callerOf(httpAuth, req)),
    );
  });
}
