import { modelManagerContract as api } from '@model-manager/plugin-model-manager-common';
import { InputError } from '@backstage/errors';
import type {
  DeploymentHistoryResponse,
  RevisionDiff,
} from '@model-manager/plugin-model-manager-common';
import type { Router } from 'express';
import type { RouterOptions } from './types';

/** A model's deploy history, and one row of it against the revision before it and live. */
export function historyRoutes(
  router: Router,
  { service, httpAuth }: RouterOptions,
) {
  router.get(api.revisionDiff.path, async (req, res) => {
    await httpAuth.credentials(req, { allow: ['user', 'service'] });
    const revision = Number(req.params.revision);
    if (!Number.isInteger(revision) || revision < 1)
      throw new InputError(
        `revision must be a positive whole number, got '${req.params.revision}'`,
      );
    res.json(
      (await service.revisionDiff(
        req.params.name,
        revision,
      )) satisfies RevisionDiff,
    );
  });

  router.get(api.history.path, async (req, res) => {
    res.json({
      items: await service.history(req.params.name),
    } satisfies DeploymentHistoryResponse);
  });
}
