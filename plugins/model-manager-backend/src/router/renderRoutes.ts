import type { RenderResponse } from '@model-manager/plugin-model-manager-common';
import type { Router } from 'express';
import { modelManagerContract as api } from '@model-manager/plugin-model-manager-common';
import { callerOf, parse } from './http';
import type { RouterOptions } from './types';

/** `POST /models/:name/render`: the preview, or the GitOps render for a cluster (audited). */
export function renderRoutes(
  router: Router,
  { service, httpAuth }: RouterOptions,
) {
  router.post(api.render.path, async (req, res) => {
    const body = parse(api.render.body, req.body, 'render request');
    const items = await service.renderRequest(
      req.params.name,
      body,
      callerOf(httpAuth, req),
    );
    res.json({ items } satisfies RenderResponse);
  });
}
