import { InputError } from '@backstage/errors';
import type { ScmIntegrationRegistry } from '@backstage/integration';
import express from 'express';
import Router from 'express-promise-router';
import { pullRequestReadiness } from './pullRequestReadiness';

/**
 * `GET /gitops/pull-request-readiness?repoUrl=github.com?owner=o%26repo=r`: whether a pull
 * request can be opened there (pullRequestReadiness). Signed-in users and services only (the
 * backend's default auth policy); it says whether credentials exist, not what they are.
 */
export function createGitOpsRouter(options: {
  integrations: ScmIntegrationRegistry;
}): express.Router {
  const router = Router();
  router.get('/gitops/pull-request-readiness', (req, res) => {
    const repoUrl = req.query.repoUrl;
    if (typeof repoUrl !== 'string' || !repoUrl.trim())
      throw new InputError(
        'repoUrl is required: the repository as the template has it, e.g. github.com?owner=acme&repo=gitops',
      );
    res.json(pullRequestReadiness(options.integrations, repoUrl));
  });
  return router;
}
