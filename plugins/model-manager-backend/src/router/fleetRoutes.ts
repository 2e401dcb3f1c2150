import type { ModelStatusResponse } from '@model-manager/plugin-model-manager-common';
import type { Router } from 'express';
import { modelManagerContract as api } from '@model-manager/plugin-model-manager-common';
import { callerOf, parse, sendTaggedJson } from './http';
import type { RouterOptions } from './types';

/** What runs where: a model's status at each place, and the fleet (every model, or one). */
export function fleetRoutes(
  router: Router,
  { service, fleet, httpAuth }: RouterOptions,
) {
  router.get(api.status.path, async (req, res) => {
    res.json(
      (await service.status(req.params.name, callerOf(httpAuth, req), {
        diagnose: req.query.diagnose === 'true',
      })) satisfies ModelStatusResponse,
    );
  });

  // The fleet's answers (a FleetResponse, as FleetService.fleet gives it) go out as the JSON text
  // kept with the fleet build, with a validator: see FleetService.fleetJson and sendTaggedJson.
  router.get(api.fleet.path, async (req, res) => {
    await httpAuth.credentials(req, { allow: ['user', 'service'] });
    sendTaggedJson(
      req,
      res,
      await fleet.fleetJson(parse(api.fleet.query, req.query, 'fleet query')),
    );
  });

  router.get(api.modelFleet.path, async (req, res) => {
    await httpAuth.credentials(req, { allow: ['user', 'service'] });
    const query = parse(api.modelFleet.query, req.query, 'fleet query');
    service.getModel(req.params.name);
    sendTaggedJson(
      req,
      res,
      await fleet.fleetJson({ ...query, model: req.params.name }),
    );
  });
}
