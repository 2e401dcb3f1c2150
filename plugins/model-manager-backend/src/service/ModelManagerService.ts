import type {
  AuditorService,
  LoggerService,
} from '@backstage/backend-plugin-api';
import { NotFoundError, ServiceUnavailableError } from '@backstage/errors';
import type { ModelCatalogService } from '@model-manager/plugin-model-manager-node';
import {
  categoryOperations,
  explainServer,
  resolveServer,
  type Catalog,
  type CatalogStatus,
  type ClusterSummary,
  type DeploymentHistoryItem,
  type DeployRequest,
  type DeploymentResult,
  type DeployTarget,
  type DiffResult,
  type ModelStatusResponse,
  type ModelSummary,
  type PreflightResponse,
  type RenderedObject,
  type RenderRequest,
  type ResolveResponse,
  type RevisionDiff,
  type RollbackRequest,
  type RolloutApplyRequest,
  type RolloutApplyResult,
  type RuntimeSummary,
  type ServerOverrides,
} from '@model-manager/plugin-model-manager-common';
import { withChangesFromPrevious, type DeploymentHistory } from '../history';
import type { ClusterRegistry, ServerSideApplier } from '../kubernetes';
import type { ModelAuthorizer } from '../permissions';
import type { PreflightService } from '../preflight';
import { revisionDiff } from '../sync';
import { ActionGate, identify, type Caller } from './access';
import { DeployUseCase } from './deploy/DeployUseCase';
import { ModelIndex } from './ModelIndex';
import { RenderUseCase } from './render/RenderUseCase';
import {
  RolloutUseCase,
  type ApplyRolloutOptions,
} from './rollout/RolloutUseCase';
import { StatusUseCase } from './status/StatusUseCase';
import { summarizeModel, summarizeRuntime } from './summaries';
import type { FleetLink, UseCaseContext } from './types';
import { UndeployUseCase } from './undeploy/UndeployUseCase';

export type { DeployOptions } from './types';
export type { DeploymentResult, DeployTarget };

/** The options of {@link ModelManagerService.create}. */
export interface ModelManagerServiceOptions {
  catalog: ModelCatalogService;
  clusters: ClusterRegistry;
  applier: ServerSideApplier;
  history: DeploymentHistory;
  logger: LoggerService;
  /** Told when this backend changes a cluster, so the fleet reads it again; read for sync states. */
  fleet?: FleetLink;
  /** Checks the target before a deploy applies anything (absent: no preflight). */
  preflight?: PreflightService;
  /**
   * The permission checks and audit events of the operations that change a cluster (deploy,
   * rollback, undeploy, GitOps render, rollout batch). Absent: those operations refuse to run.
   */
  access?: { authorizer: ModelAuthorizer; auditor: AuditorService };
  /** Send Impersonate-User with the signed-in user's entity ref (default false). */
  impersonateUser?: boolean;
}

/**
 * The model-manager operations behind the REST API, one use case per folder: deploy (permission,
 * audit, preflight, apply, history), status and diff, rollout, undeploy and rollback, render. The
 * catalog reads (models, runtimes, clusters, resolve) are here.
 */
export class ModelManagerService {
  private readonly deploys: DeployUseCase;
  private readonly rollouts: RolloutUseCase;
  private readonly undeploys: UndeployUseCase;
  private readonly statuses: StatusUseCase;
  private readonly renders: RenderUseCase;
  private readonly actionGate?: ActionGate;

  private constructor(private readonly options: ModelManagerServiceOptions) {
    const { access } = options;
    this.actionGate = access
      ? ActionGate.create({
          ...access,
          impersonateUser: options.impersonateUser ?? false,
        })
      : undefined;
    const ctx: UseCaseContext = {
      catalog: () => this.catalog(),
      getModel: name => this.getModel(name),
      checkTarget: target => this.checkTarget(target),
      gate: () => this.gate(),
      clusters: options.clusters,
      applier: options.applier,
      history: options.history,
      fleet: options.fleet,
      preflight: options.preflight,
    };
    this.deploys = new DeployUseCase(ctx);
    this.rollouts = new RolloutUseCase(ctx, this.deploys);
    this.undeploys = new UndeployUseCase(ctx);
    this.statuses = new StatusUseCase(ctx);
    this.renders = new RenderUseCase(ctx);
  }

  static create(options: ModelManagerServiceOptions): ModelManagerService {
    const service = new ModelManagerService(options);
    service.warmModelIndex();
    return service;
  }

  /**
   * Builds the model summaries of every catalog loaded (0.25 s at 10,000 models) right after the
   * load rather than in the first `GET /models` after it, so that request answers as fast as the rest.
   */
  private warmModelIndex() {
    const warm = (catalog: Catalog) =>
      setImmediate(() => {
        try {
          ModelIndex.of(catalog);
        } catch (e) {
          // GET /models will answer the same error, with its status.
          this.options.logger.warn(
            `model-manager: could not summarize the models: ${
              (e as Error).message
            }`,
          );
        }
      }).unref();
    const current = this.options.catalog.current();
    if (current) warm(current);
    this.options.catalog.subscribe(warm);
  }

  private gate(): ActionGate {
    if (!this.actionGate)
      throw new Error(
        'ModelManagerService was created without `access` (authorizer and auditor): it cannot check permissions',
      );
    return this.actionGate;
  }

  /** The last good catalog. @throws ServiceUnavailableError when none ever loaded. */
  catalog(): Catalog {
    const catalog = this.options.catalog.current();
    if (!catalog) {
      throw new ServiceUnavailableError(
        `the model catalog is not loaded: ${
          this.options.catalog.loadStatus().message ?? 'unknown error'
        }`,
      );
    }
    return catalog;
  }

  /** Whether the last load worked, and the size of the catalog served (the last good one). */
  catalogStatus(): CatalogStatus {
    const status = this.options.catalog.loadStatus();
    const catalog = this.options.catalog.current();
    return {
      ok: status.ok,
      at: status.at.toISOString(),
      message: status.message,
      problems: status.problems,
      models: catalog ? Object.keys(catalog.models).length : 0,
      runtimes: catalog ? Object.keys(catalog.runtimes).length : 0,
    };
  }

  /** The summaries of the served catalog, computed once per catalog load, for `GET /models`. */
  modelIndex(): ModelIndex {
    return ModelIndex.of(this.catalog());
  }

  listModels(): ModelSummary[] {
    return this.modelIndex().query({}).items;
  }

  getModel(name: string): ModelSummary {
    const catalog = this.catalog();
    if (!Object.prototype.hasOwnProperty.call(catalog.models, name))
      throw new NotFoundError(`unknown model '${name}'`);
    return summarizeModel(catalog, name);
  }

  listRuntimes(): RuntimeSummary[] {
    const catalog = this.catalog();
    return Object.keys(catalog.runtimes).map(r => summarizeRuntime(catalog, r));
  }

  getRuntime(name: string): RuntimeSummary {
    const catalog = this.catalog();
    if (!Object.prototype.hasOwnProperty.call(catalog.runtimes, name))
      throw new NotFoundError(`unknown runtime '${name}'`);
    return summarizeRuntime(catalog, name);
  }

  listClusters(): ClusterSummary[] {
    return this.options.clusters.list();
  }

  resolve(name: string, overrides: ServerOverrides): ResolveResponse {
    const catalog = this.catalog();
    const server = resolveServer(catalog, name, overrides);
    return {
      server,
      explain: explainServer(server),
      operations: categoryOperations(catalog, server.runtime, server.category),
    };
  }

  /** Validates the target before anything reaches a cluster. */
  checkTarget(target: DeployTarget) {
    this.options.clusters.assertKnown(target.cluster);
    this.options.clusters.assertNamespaceAllowed(
      target.cluster,
      target.namespace,
    );
  }

  /** The model's objects with these overrides, in `namespace` (see {@link RenderUseCase}). */
  render(
    name: string,
    overrides: ServerOverrides,
    namespace: string,
  ): RenderedObject[] {
    return this.renders.render(name, overrides, namespace);
  }

  /** `POST /models/:name/render` (see {@link RenderUseCase.renderRequest}). */
  renderRequest(
    model: string,
    request: RenderRequest,
    caller: Caller,
  ): Promise<RenderedObject[]> {
    return this.renders.renderRequest(model, request, caller);
  }

  /** `POST /models/:name/deploy` (see {@link DeployUseCase.deploy}). */
  deploy(
    model: string,
    request: DeployRequest,
    caller: Caller,
  ): Promise<DeploymentResult> {
    return this.deploys.deploy(model, request, caller);
  }

  /** `GET /models/:name/preflight` (see {@link DeployUseCase.preflight}). */
  async preflight(
    model: string,
    target: DeployTarget,
    overrides: ServerOverrides,
    caller: Caller,
  ): Promise<PreflightResponse> {
    const who = await this.identify(caller);
    return this.deploys.preflight(
      model,
      target,
      overrides,
      who.impersonateUser,
    );
  }

  /** `POST /models/:name/rollback` (see {@link UndeployUseCase.rollback}). */
  rollback(
    model: string,
    request: RollbackRequest,
    caller: Caller,
  ): Promise<DeploymentResult> {
    return this.undeploys.rollback(model, request, caller);
  }

  /** `DELETE /models/:name/deployment` (see {@link UndeployUseCase.undeploy}). */
  undeploy(
    model: string,
    target: DeployTarget,
    caller: Caller,
  ): Promise<DeploymentResult> {
    return this.undeploys.undeploy(model, target, caller);
  }

  /** `GET /models/:name/diff`: what a deploy with these overrides would change at the target. */
  async diff(
    model: string,
    target: DeployTarget,
    overrides: ServerOverrides,
    caller: Caller,
  ): Promise<DiffResult> {
    const who = await this.identify(caller);
    const objects = this.render(model, overrides, target.namespace);
    this.checkTarget(target);
    return this.statuses.diff(objects, model, target, who.impersonateUser);
  }

  /** `GET /models/:name/status` (see {@link StatusUseCase.status}). */
  async status(
    model: string,
    caller: Caller,
    options: { diagnose?: boolean } = {},
  ): Promise<ModelStatusResponse> {
    const who = await this.identify(caller);
    return this.statuses.status(model, who.impersonateUser, options);
  }

  /** `POST /rollouts/apply` (see {@link RolloutUseCase.applyBatch}). */
  rollout(
    request: RolloutApplyRequest,
    caller: Caller,
  ): Promise<RolloutApplyResult> {
    return this.rollouts.applyBatch(request, caller);
  }

  /** One rollout batch without a permission check (see {@link RolloutUseCase.applyRollout}). */
  applyRollout(
    request: RolloutApplyRequest,
    options: ApplyRolloutOptions,
  ): Promise<RolloutApplyResult> {
    return this.rollouts.applyRollout(request, options);
  }

  /** The model's history, newest first, each row with its changes from the revision before it. */
  async history(model: string): Promise<DeploymentHistoryItem[]> {
    this.getModel(model);
    return withChangesFromPrevious(await this.options.history.list(model));
  }

  /** One history row against the revision before it and against live (the history dialog). */
  revisionDiff(model: string, revision: number): Promise<RevisionDiff> {
    const fleet = this.options.fleet;
    const liveObjects = fleet?.liveObjects?.bind(fleet);
    if (!liveObjects)
      throw new ServiceUnavailableError(
        'ModelManagerService was created without a fleet: it cannot read live objects',
      );
    return revisionDiff({
      model,
      revision,
      history: m => this.history(m),
      fleet: { liveObjects },
    });
  }

  private identify(caller: Caller) {
    return identify(caller, this.options.impersonateUser ?? false);
  }
}
