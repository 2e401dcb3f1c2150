import { InputError, NotFoundError } from '@backstage/errors';
import {
  isOwnedByModel,
  modelDeployPermission,
  modelUndeployPermission,
  renderManifests,
  resolveServer,
  type DeploymentResult,
  type DeployTarget,
  type RollbackRequest,
} from '@model-manager/plugin-model-manager-common';
import type { Caller, Identity } from '../access';
import { applyAndRecord } from '../apply/applyAndRecord';
import type { UseCaseContext } from '../types';

/** Taking a model back: to nothing at a target (undeploy), or to a revision it had (rollback). */
export class UndeployUseCase {
  constructor(private readonly ctx: UseCaseContext) {}

  /**
   * `POST /models/:name/rollback`: applies the manifests of a revision that succeeded again, where
   * it applied them, after the deploy permission check (audited as `model-rollback`).
   */
  async rollback(
    model: string,
    request: RollbackRequest,
    caller: Caller,
  ): Promise<DeploymentResult> {
    this.ctx.getModel(model);
    return this.ctx
      .gate()
      .guard(
        caller,
        'model-rollback',
        modelDeployPermission,
        { model, revision: request.revision },
        who => this.rollbackAs(model, request, who),
      );
  }

  private async rollbackAs(
    model: string,
    { revision, dryRun = false, force = false }: RollbackRequest,
    who: Identity,
  ): Promise<DeploymentResult> {
    const record = await this.ctx.history.get(model, revision);
    if (!record)
      throw new NotFoundError(`model ${model} has no revision ${revision}`);
    if (
      record.action === 'undeploy' ||
      record.action === 'dry-run' ||
      record.manifests.length === 0
    ) {
      throw new InputError(
        `revision ${revision} is a ${record.action}; roll back to a deploy, rollout or rollback revision`,
      );
    }
    if (record.outcome !== 'succeeded') {
      throw new InputError(
        `revision ${revision} of ${model} failed (${
          record.message ?? 'no message'
        }); roll back to a revision that succeeded`,
      );
    }
    this.ctx.checkTarget(record);
    return applyAndRecord(this.ctx, {
      model,
      objects: record.manifests,
      options: {
        dryRun,
        force,
        actor: who.actor,
        impersonateUser: who.impersonateUser,
        cluster: record.cluster,
        namespace: record.namespace,
        overrides: record.overrides,
      },
      action: dryRun ? 'dry-run' : 'rollback',
      serverVersion: record.serverVersion,
      rollbackOf: revision,
      // A rollback dry run is the history dialog asking what a rollback would change (issue 26):
      // a look, not a request, so it adds no row to the history it is shown from.
      recorded: !dryRun,
    });
  }

  /**
   * `DELETE /models/:name/deployment`: deletes the model's own objects at the target, newest
   * first, after the undeploy permission check (audited as `model-undeploy`).
   */
  async undeploy(
    model: string,
    target: DeployTarget,
    caller: Caller,
  ): Promise<DeploymentResult> {
    this.ctx.getModel(model);
    this.ctx.checkTarget(target);
    return this.ctx
      .gate()
      .guard(
        caller,
        'model-undeploy',
        modelUndeployPermission,
        { model, ...target },
        who => this.undeployAs(model, target, who),
      );
  }

  private async undeployAs(
    model: string,
    target: DeployTarget,
    who: Identity,
  ): Promise<DeploymentResult> {
    const catalog = this.ctx.catalog();
    this.ctx.checkTarget(target);
    // The model's own objects, newest first. Shared objects (create-if-absent: the
    // ClusterServingRuntime, the namespace's weights PersistentVolumeClaim) stay: other models use them.
    const objects = renderManifests(
      catalog,
      resolveServer(catalog, model, {}, { locate: false }),
      { namespace: target.namespace },
    )
      .filter(isOwnedByModel)
      .reverse();
    const outcome = await this.ctx.applier.delete(
      target.cluster,
      objects,
      who.impersonateUser,
    );
    const message = outcome.ok
      ? undefined
      : outcome.results.find(r => r.action === 'failed')?.message;
    const record = await this.ctx.history.record({
      model,
      cluster: target.cluster,
      namespace: target.namespace,
      action: 'undeploy',
      outcome: outcome.ok ? 'succeeded' : 'failed',
      actor: who.actor,
      overrides: {},
      manifests: [],
      results: outcome.results,
      message,
    });
    // With what the server answered (the deleted objects' uids), by which the watch cache tells
    // it has seen the delete; a partial undeploy waits for the next watch event instead.
    this.ctx.fleet?.changed(
      target.cluster,
      outcome.ok ? { deleted: outcome.deleted } : undefined,
    );
    return {
      ok: outcome.ok,
      revision: record.revision,
      action: 'undeploy',
      model,
      cluster: target.cluster,
      namespace: target.namespace,
      objects: outcome.results,
      message,
      failure: outcome.failure,
    };
  }
}
