import { InputError } from '@backstage/errors';
import {
  modelDeployPermission,
  renderManifests,
  resolveServer,
  type DeployRequest,
  type DeploymentResult,
  type DeployTarget,
  type PreflightResponse,
  type RenderedObject,
  type ResolvedServer,
  type ServerOverrides,
} from '@model-manager/plugin-model-manager-common';
import { checkObjectSizes } from '../../kubernetes/objectSize';
import { PreflightFailedError } from '../../preflight';
import type { Caller } from '../access';
import { applyAndRecord } from '../apply/applyAndRecord';
import type { DeployOptions, UseCaseContext } from '../types';

/**
 * A deploy: the request checked (model, overrides, rollout, target) with the model resolved once,
 * then the permission check and audit event, preflight, the apply and its history row.
 */
export class DeployUseCase {
  constructor(private readonly ctx: UseCaseContext) {}

  /**
   * `POST /models/:name/deploy`. Bad input (unknown model, version or cluster, a rollout that does
   * not match the model) is refused before authentication: it never reaches a cluster, nor the
   * audit log.
   * @throws PreflightFailedError when a preflight check failed and `skipPreflight` is not set.
   */
  async deploy(
    model: string,
    request: DeployRequest,
    caller: Caller,
  ): Promise<DeploymentResult> {
    const {
      cluster,
      namespace,
      dryRun = false,
      force = false,
      rollout,
      skipPreflight = false,
      ...overrides
    } = request;
    const server = this.check(
      model,
      overrides,
      { cluster, namespace },
      rollout,
    );
    const meta = {
      model,
      cluster,
      namespace,
      dryRun,
      ...(rollout ? { rollout } : {}),
      ...(skipPreflight ? { skipPreflight } : {}),
    };
    return this.ctx
      .gate()
      .guard(caller, 'model-deploy', modelDeployPermission, meta, async who => {
        const options: DeployOptions = {
          cluster,
          namespace,
          overrides,
          dryRun,
          force,
          rollout,
          skipPreflight,
          actor: who.actor,
          impersonateUser: who.impersonateUser,
        };
        const objects = this.render(server, namespace);
        const skippedPreflight = await this.runPreflight(
          model,
          server,
          objects,
          options,
        );
        return this.apply(model, server, objects, {
          ...options,
          skippedPreflight,
        });
      });
  }

  /**
   * Checks a deploy request (model, overrides, target) without touching a cluster, and returns
   * the model resolved with the overrides.
   * @throws NotFoundError / InputError with the engine's message.
   */
  check(
    model: string,
    overrides: ServerOverrides,
    target: DeployTarget,
    rollout?: DeployOptions['rollout'],
  ): ResolvedServer {
    const server = resolveServer(this.ctx.catalog(), model, overrides, {
      locate: false,
    });
    if (rollout && rollout.runtime !== server.runtime) {
      throw new InputError(
        `rollout.runtime is ${rollout.runtime}, but model ${model} runs on runtime ${server.runtime}`,
      );
    }
    if (
      rollout?.version !== undefined &&
      overrides.serverVersion !== rollout.version
    ) {
      throw new InputError(
        `rollout.version is ${rollout.version}, but serverVersion is ${
          overrides.serverVersion ?? '(not set)'
        }; a rollout deploys with serverVersion set to the version it rolls out`,
      );
    }
    this.ctx.checkTarget(target);
    return server;
  }

  /** The objects of a server already resolved, in the target namespace. */
  render(server: ResolvedServer, namespace: string): RenderedObject[] {
    return renderManifests(this.ctx.catalog(), server, { namespace });
  }

  /**
   * Applies a server already resolved from `options.overrides` and checked ({@link check}), and
   * records it: action `dry-run`, `rollout` (with `options.rollout`) or `deploy`.
   */
  apply(
    model: string,
    server: ResolvedServer,
    objects: RenderedObject[],
    options: DeployOptions & { skippedPreflight?: string[] },
  ): Promise<DeploymentResult> {
    const action = options.dryRun
      ? 'dry-run'
      : options.rollout
      ? 'rollout'
      : 'deploy';
    return applyAndRecord(this.ctx, {
      model,
      objects,
      options,
      action,
      serverVersion: server.version?.value,
      apiPrefix: { value: server.plumbing.api_prefix?.value },
    });
  }

  /**
   * `GET /models/:name/preflight`: will the target accept and run the model with these overrides?
   * @throws NotFoundError for an unknown model or version.
   */
  async preflight(
    model: string,
    target: DeployTarget,
    overrides: ServerOverrides,
    impersonateUser?: string,
  ): Promise<PreflightResponse> {
    this.ctx.getModel(model);
    this.ctx.checkTarget(target);
    if (!this.ctx.preflight) return { model, ...target, checks: [] };
    return this.ctx.preflight.preflight(model, target, overrides, {
      impersonateUser,
    });
  }

  /**
   * Runs preflight before a deploy: a failed check refuses it, nothing applied
   * ({@link PreflightFailedError}), unless the request says `skipPreflight`; then the failed checks
   * are returned, for the history row.
   */
  private async runPreflight(
    model: string,
    server: ResolvedServer,
    objects: RenderedObject[],
    options: DeployOptions,
  ): Promise<string[] | undefined> {
    const preflight = this.ctx.preflight;
    if (!preflight) return undefined;
    // An object etcd would refuse is refused before preflight sends any request.
    checkObjectSizes(objects);
    const checks = await preflight.checks(
      this.ctx.catalog(),
      { server, objects },
      options,
      preflight.session(options.impersonateUser),
    );
    const failed = checks.filter(c => c.status === 'fail');
    if (options.skipPreflight) return failed.map(c => `${c.id}: ${c.message}`);
    if (failed.length > 0)
      throw new PreflightFailedError(
        `${model}@${options.cluster}/${options.namespace}`,
        checks,
      );
    return undefined;
  }
}
