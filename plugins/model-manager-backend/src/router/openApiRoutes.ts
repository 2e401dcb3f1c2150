import { modelManagerContract as api } from '@model-manager/plugin-model-manager-common';
import type { Router } from 'express';
import { openApiDocument } from './openApiDocument';

/** `GET /openapi.json`: this API as an OpenAPI 3.0 document, generated from the contract. */
export function openApiRoutes(router: Router) {
  let document: string | undefined;
  router.get(api.openApi.path, (_req, res) => {
    document ??= JSON.stringify(openApiDocument());
    res.type('application/json').send(document);
  });
}
