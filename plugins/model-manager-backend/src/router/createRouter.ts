import { InputError } from '@backstage/errors';
import express, { type Request, type Response } from 'express';
import Router from 'express-promise-router';
import { redactRefusedQuery } from '../redactRefusedQuery';
import { catalogRoutes } from './catalogRoutes';
import { deployRoutes } from './deployRoutes';
import { fleetRoutes } from './fleetRoutes';
import { gitopsRoutes } from './gitopsRoutes';
import { historyRoutes } from './historyRoutes';
import { openApiRoutes } from './openApiRoutes';
import { renderRoutes } from './renderRoutes';
import { rolloutRoutes } from './rolloutRoutes';
import type { RouterOptions } from './types';
import { undeployRoutes } from './undeployRoutes';

/**
 * The REST API, one file per route group. A route parses its request (zod schemas, answering 400
 * with each field wrong) and maps the service's answer to a status; permission checks, audit
 * events and the rules live in the service.
 */
export async function createRouter(
  options: RouterOptions,
): Promise<express.Router> {
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
  for (const routes of [
    catalogRoutes,
    renderRoutes,
    deployRoutes,
    undeployRoutes,
    fleetRoutes,
    rolloutRoutes,
    historyRoutes,
    gitopsRoutes,
    openApiRoutes,
  ])
    routes(router, options);
  router.use(redactRefusedQuery);
  return router;
}
