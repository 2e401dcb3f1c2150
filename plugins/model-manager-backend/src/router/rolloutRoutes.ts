import type {
  RolloutApplyResult,
  RolloutPlan,
} from '@model-manager/plugin-model-manager-common';
import type { Router } from 'express';
import { modelManagerContract as api } from '@model-manager/plugin-model-manager-common';
import { callerOf, parse } from './http';
import type { RouterOptions } from './types';

/** A rollout: its plan, and one batch of it applied. */
export function rolloutRoutes(
  router: Router,
  { service, fleet, httpAuth }: RouterOptions,
) {
  router.get(api.rolloutPlan.path, async (req, res) => {
    await httpAuth.credentials(req, { allow: ['user', 'service'] });
    res.json(
      (await fleet.plan(
        parse(api.rolloutPlan.query, req.query, 'rollout plan query'),
      )) satisfies RolloutPlan,
    );
  });

  router.post(api.rolloutApply.path, async (req, res) => {
    const body = parse(api.rolloutApply.body, req.body, 'rollout request');
    res.json(
      (await service.rollout(
        body,
        callerOf(httpAuth, req),
      )) satisfies RolloutApplyResult,
    );
  });
}
