import type { RenderResponse } from '@model-manager/plugin-model-manager-common';
import type { Router } from 'express';
import { renderRequestSchema } from '../service';
import { callerOf, parse } from './http';
import type { RouterOptions } from './types';

/** `POST /models/:name/render`: the preview, or the GitOps render for a cluster (audited). */
export function renderRoutes(
  router: Router,
  { service, httpAuth }: RouterOptions,
) {
  router.post('/models/:name/render', async (req, res) => {
    const body = parse(renderRequestSchema, req.body, 'render request');
    const items = await service.renderRequest(
      req.params.name,
      body,
      callerOf(httpAuth, req),
    );
    res.json({ items } satisfies RenderResponse);
  });
}
