import type {
  FleetResponse,
  ModelStatusResponse,
} from '@model-manager/plugin-model-manager-common';
import type { Router } from 'express';
import { fleetQuerySchema } from '../service';
import { callerOf, parse } from './http';
import type { RouterOptions } from './types';

/** What runs where: a model's status at each place, and the fleet (every model, or one). */
export function fleetRoutes(
  router: Router,
  { service, fleet, httpAuth }: RouterOptions,
) {
  router.get('/models/:name/status', async (req, res) => {
    res.json(
      (await service.status(req.params.name, callerOf(httpAuth, req), {
        diagnose: req.query.diagnose === 'true',
      })) satisfies ModelStatusResponse,
    );
  });

  router.get('/fleet', async (req, res) => {
    await httpAuth.credentials(req, { allow: ['user', 'service'] });
    res.json(
      (await fleet.fleet(
        parse(fleetQuerySchema, req.query, 'fleet query'),
      )) satisfies FleetResponse,
    );
  });

  router.get('/models/:name/fleet', async (req, res) => {
    await httpAuth.credentials(req, { allow: ['user', 'service'] });
    const query = parse(fleetQuerySchema, req.query, 'fleet query');
    service.getModel(req.params.name);
    res.json(
      (await fleet.fleet({
        ...query,
        model: req.params.name,
      })) satisfies FleetResponse,
    );
  });
}
