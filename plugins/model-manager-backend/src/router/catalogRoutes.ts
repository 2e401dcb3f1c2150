import type {
  CatalogStatus,
  ClusterListResponse,
  HealthResponse,
  ModelListResponse,
  ModelSummary,
  ResolveResponse,
  RuntimeListResponse,
  RuntimeSummary,
} from '@model-manager/plugin-model-manager-common';
import type { Router } from 'express';
import { modelManagerContract as api } from '@model-manager/plugin-model-manager-common';
import { matchesETag, overridesFromQuery, parse } from './http';
import type { RouterOptions } from './types';

/** Health, catalog status, models, runtimes, clusters and a model resolved: reads of the catalog. */
export function catalogRoutes(router: Router, { service }: RouterOptions) {
  router.get(api.health.path, (_req, res) => {
    res.json({ status: 'ok' } satisfies HealthResponse);
  });

  router.get(api.catalogStatus.path, (_req, res) => {
    res.json(service.catalogStatus() satisfies CatalogStatus);
  });

  // Filtered, sorted and paged from summaries computed once per catalog load. The ETag names the
  // served catalog and the query: a client polling an unchanged catalog gets a 304 and no body.
  router.get(api.listModels.path, (req, res) => {
    const query = parse(api.listModels.query, req.query, 'models query');
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

  router.get(api.getModel.path, (req, res) => {
    res.json(service.getModel(req.params.name) satisfies ModelSummary);
  });

  router.get(api.listRuntimes.path, (_req, res) => {
    res.json({ items: service.listRuntimes() } satisfies RuntimeListResponse);
  });

  router.get(api.getRuntime.path, (req, res) => {
    res.json(service.getRuntime(req.params.name) satisfies RuntimeSummary);
  });

  router.get(api.listClusters.path, (_req, res) => {
    res.json({ items: service.listClusters() } satisfies ClusterListResponse);
  });

  router.get(api.resolve.path, (req, res) => {
    res.json(
      service.resolve(
        req.params.name,
        overridesFromQuery(req.query),
      ) satisfies ResolveResponse,
    );
  });
}
