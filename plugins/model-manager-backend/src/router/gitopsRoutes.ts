import { modelManagerContract as api } from '@model-manager/plugin-model-manager-common';
import type { Router } from 'express';
import { pullRequestReadiness } from '../gitops';
import { parse } from './http';
import type { RouterOptions } from './types';

/** Whether a pull request can be opened on a repository (the "Propose model deployment" form asks). */
export function gitopsRoutes(router: Router, { integrations }: RouterOptions) {
  router.get(api.pullRequestReadiness.path, (req, res) => {
    const { repoUrl } = parse(
      api.pullRequestReadiness.query,
      req.query,
      'pull request readiness query',
    );
    res.json(pullRequestReadiness(integrations, repoUrl));
  });
}
