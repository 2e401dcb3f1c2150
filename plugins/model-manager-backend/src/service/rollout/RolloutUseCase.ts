import {
  modelDeployPermission,
  type RolloutApplyRequest,
  type RolloutApplyResult,
  type RolloutTargetResult,
} from '@model-manager/plugin-model-manager-common';
import type { Caller } from '../access';
import type { DeployUseCase } from '../deploy/DeployUseCase';
import type { UseCaseContext } from '../types';

/** Options of {@link RolloutUseCase.applyRollout}. */
export interface ApplyRolloutOptions {
  actor: string;
  impersonateUser?: string;
  /** Told each target's outcome (an audit event per target). */
  audit?: (target: RolloutTargetResult) => Promise<void>;
}

/** A rollout batch: each target a deploy recorded as a rollout, with one permission check for the batch. */
export class RolloutUseCase {
  constructor(
    private readonly ctx: UseCaseContext,
    private readonly deploys: DeployUseCase,
  ) {}

  /**
   * `POST /rollouts/apply`: one permission check for the batch (one request per model, with its
   * entity ref; any target denied refuses the batch before anything is applied), one audit event
   * and one history row per target.
   */
  async applyBatch(
    request: RolloutApplyRequest,
    caller: Caller,
  ): Promise<RolloutApplyResult> {
    const gate = this.ctx.gate();
    const who = await gate.authorizeAll(
      caller,
      'model-rollout',
      modelDeployPermission,
      request.targets.map(t => t.model),
      {
        runtime: request.runtime,
        rolloutId: request.rolloutId,
        targets: request.targets.length,
      },
      denials =>
        `${denials}; so may not roll out this batch (nothing was applied)`,
    );
    return this.applyRollout(request, {
      actor: who.actor,
      impersonateUser: who.impersonateUser,
      audit: async target => {
        if (target.outcome === 'already-applied') return;
        const event = await gate.event(caller, 'model-rollout', {
          actor: who.actor,
          model: target.model,
          cluster: target.cluster,
          namespace: target.namespace,
          runtime: request.runtime,
          version: request.version,
          rolloutId: request.rolloutId,
        });
        if (target.outcome === 'applied')
          await event.success({ meta: { revision: target.revision } });
        else await event.fail({ error: new Error(target.message ?? 'failed') });
      },
    });
  }

  /**
   * Applies one batch of a rollout: each target is a deploy recorded as a rollout (with the
   * rollout's id), `concurrency` at a time; a target this rollout already applied (a resumed task)
   * is not applied again. Once more than `maxFailures` targets failed, no new one starts; the rest
   * are `not-attempted`. `audit` is told each target's outcome. No permission check: see
   * {@link applyBatch}.
   */
  async applyRollout(
    request: RolloutApplyRequest,
    options: ApplyRolloutOptions,
  ): Promise<RolloutApplyResult> {
    const key = (t: { model: string; cluster: string; namespace: string }) =>
      `${t.model}/${t.cluster}/${t.namespace}`;
    const done = new Map(
      (await this.ctx.history.appliedInRollout(request.rolloutId)).map(r => [
        key(r),
        r,
      ]),
    );
    const items: RolloutTargetResult[] = request.targets.map(t => ({
      model: t.model,
      cluster: t.cluster,
      namespace: t.namespace,
      outcome: 'not-attempted',
    }));
    const maxFailures = request.maxFailures ?? Number.POSITIVE_INFINITY;
    let next = 0;
    let failures = 0;
    const applyOne = async (index: number) => {
      const prior = done.get(key(request.targets[index]));
      items[index] = prior
        ? {
            ...items[index],
            outcome: 'already-applied',
            revision: prior.revision,
            ...(prior.serverVersion
              ? { serverVersion: prior.serverVersion }
              : {}),
          }
        : await this.applyTarget(request, index, options);
      if (prior) return;
      if (items[index].outcome === 'failed') failures++;
      await options.audit?.(items[index]);
    };
    const worker = async () => {
      while (next < request.targets.length && failures <= maxFailures)
        await applyOne(next++);
    };
    const concurrency = Math.max(
      1,
      Math.min(request.concurrency ?? 4, request.targets.length),
    );
    await Promise.all(Array.from({ length: concurrency }, worker));
    return { items };
  }

  /** One target of a batch, deployed as a rollout (the model resolved once); failures as data. */
  private async applyTarget(
    request: RolloutApplyRequest,
    index: number,
    options: ApplyRolloutOptions,
  ): Promise<RolloutTargetResult> {
    const t = request.targets[index];
    const where = {
      model: t.model,
      cluster: t.cluster,
      namespace: t.namespace,
    };
    const rollout = {
      runtime: request.runtime,
      ...(request.version ? { version: request.version } : {}),
    };
    try {
      const server = this.deploys.check(t.model, t.overrides, t, rollout);
      const result = await this.deploys.apply(
        t.model,
        server,
        this.deploys.render(server, t.namespace),
        {
          ...where,
          overrides: t.overrides,
          dryRun: false,
          force: request.force ?? false,
          rollout,
          rolloutId: request.rolloutId,
          // The plan this rollout follows has just listed the live objects.
          lastSeen: o => this.ctx.fleet?.lastSeen?.(t.cluster, o),
          actor: options.actor,
          impersonateUser: options.impersonateUser,
        },
      );
      return result.ok
        ? {
            ...where,
            outcome: 'applied',
            revision: result.revision,
            ...(result.serverVersion
              ? { serverVersion: result.serverVersion }
              : {}),
          }
        : {
            ...where,
            outcome: 'failed',
            message: result.message ?? 'the apply failed',
          };
    } catch (e) {
      return { ...where, outcome: 'failed', message: (e as Error).message };
    }
  }
}
