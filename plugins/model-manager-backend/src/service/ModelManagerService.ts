import { checkObjectSizes } from '../kubernetes/objectSize';
import type { LoggerService } from '@backstage/backend-plugin-api';
import {
  InputError,
  NotFoundError,
  ServiceUnavailableError,
} from '@backstage/errors';
import type { ModelCatalogService } from '@model-manager/plugin-model-manager-node';
import {
  diffObject,
  explainServer,
  isOwnedByModel,
  renderManifests,
  resolveServer,
  isServerKind,
  statusReadingOf,
  selectEndpoint,
  summarizeJob,
  summarizeKServeStatus,
  signaturesFor,
  type Catalog,
  type CatalogStatus,
  type ClusterSummary,
  type DeploymentHistoryItem,
  type ModelSummary,
  type ResolveResponse,
  type ResolvedServer,
  type RuntimeSummary,
  type DownloadStatus,
  type ModelStatus,
  type ModelStatusResponse,
  type DeploymentResult,
  type DeployTarget,
  type DiffResult,
  type Diagnosis,
  type RenderedObject,
  type RolloutApplyRequest,
  type RolloutApplyResult,
  type RolloutTargetResult,
  type ServerOverrides,
  type PreflightResponse,
} from '@model-manager/plugin-model-manager-common';
import { DiagnosisReader } from '../diagnosis';
import type { FleetService } from '../fleet';
import { PreflightFailedError, type PreflightService } from '../preflight';
import {
  withChangesFromPrevious,
  type DeploymentHistory,
  type DeploymentRecord,
} from '../history';
import type { ClusterRegistry, ServerSideApplier } from '../kubernetes';
import type { ApplyOutcome } from '../kubernetes/types';
import { ModelIndex } from './ModelIndex';
import { summarizeModel, summarizeRuntime } from './summaries';

export type { DeploymentResult, DeployTarget };

/** The label the Job controller puts on a Job's pods (https://kubernetes.io/docs/reference/labels-annotations-taints/#batchkubernetesiojob-name). */
const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';

export interface DeployOptions extends DeployTarget {
  overrides: ServerOverrides;
  dryRun: boolean;
  force: boolean;
  /** Entity ref of the user asking (recorded in history). */
  actor: string;
  /** Impersonate-User value, when impersonation is on. */
  impersonateUser?: string;
  /** Set by a rollout: recorded as action `rollout`. */
  rollout?: { runtime: string; version?: string };
  /** The rollout (scaffolder task id) this deploy belongs to. */
  rolloutId?: string;
  /** What the caller last saw of an object (see `ApplyRequest.lastSeen`). */
  lastSeen?: (object: RenderedObject) => Record<string, any> | null | undefined;
  /** Apply even though a preflight check failed (recorded in history). */
  skipPreflight?: boolean;
}

/** The model-manager operations behind the REST API. Permission checks happen in the router. */
export class ModelManagerService {
  private constructor(
    private readonly options: {
      catalog: ModelCatalogService;
      clusters: ClusterRegistry;
      applier: ServerSideApplier;
      history: DeploymentHistory;
      logger: LoggerService;
      /** Told when this backend changes a cluster, so the fleet reads it again. */
      fleet?: Pick<FleetService, 'changed'> &
        Partial<Pick<FleetService, 'lastSeen'>>;
      /** Checks the target before a deploy applies anything (absent: no preflight). */
      preflight?: PreflightService;
    },
  ) {}

  static create(options: ModelManagerService['options']): ModelManagerService {
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
    const server = resolveServer(this.catalog(), name, overrides);
    return { server, explain: explainServer(server) };
  }

  render(
    name: string,
    overrides: ServerOverrides,
    namespace: string,
  ): RenderedObject[] {
    const catalog = this.catalog();
    return renderManifests(
      catalog,
      resolveServer(catalog, name, overrides, { locate: false }),
      { namespace },
    );
  }

  /**
   * Checks a deploy request (model, overrides, target) without touching a cluster.
   * @throws NotFoundError / InputError with the engine's message.
   */
  checkDeploy(
    model: string,
    overrides: ServerOverrides,
    target: DeployTarget,
    rollout?: DeployOptions['rollout'],
  ): ResolvedServer {
    const server = resolveServer(this.catalog(), model, overrides, {
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
    this.checkTarget(target);
    return server;
  }

  /** Validates the target before anything reaches a cluster. */
  checkTarget(target: DeployTarget) {
    this.options.clusters.assertKnown(target.cluster);
    this.options.clusters.assertNamespaceAllowed(
      target.cluster,
      target.namespace,
    );
  }

  async deploy(
    model: string,
    options: DeployOptions,
  ): Promise<DeploymentResult> {
    const server = resolveServer(this.catalog(), model, options.overrides, {
      locate: false,
    });
    this.checkTarget(options);
    const skippedPreflight = await this.runPreflight(model, server, options);
    return this.deployResolved(model, server, { ...options, skippedPreflight });
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
    this.getModel(model);
    this.checkTarget(target);
    if (!this.options.preflight) return { model, ...target, checks: [] };
    return this.options.preflight.preflight(model, target, overrides, {
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
    options: DeployOptions,
  ): Promise<string[] | undefined> {
    if (!this.options.preflight) return undefined;
    const catalog = this.catalog();
    const objects = renderManifests(catalog, server, {
      namespace: options.namespace,
    });
    // An object etcd would refuse is refused before preflight sends any request.
    checkObjectSizes(objects);
    const checks = await this.options.preflight.checks(
      catalog,
      { server, objects },
      options,
      this.options.preflight.session(options.impersonateUser),
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

  /** {@link deploy} of a server already resolved from `options.overrides` and checked. */
  private async deployResolved(
    model: string,
    server: ResolvedServer,
    options: DeployOptions & { skippedPreflight?: string[] },
  ): Promise<DeploymentResult> {
    const catalog = this.catalog();
    const objects = renderManifests(catalog, server, {
      namespace: options.namespace,
    });
    const action = options.dryRun
      ? 'dry-run'
      : options.rollout
      ? 'rollout'
      : 'deploy';
    return this.applyAndRecord(
      model,
      objects,
      options,
      action,
      server.version?.value,
    );
  }

  async rollback(
    model: string,
    revision: number,
    options: Omit<DeployOptions, 'overrides' | 'cluster' | 'namespace'>,
  ): Promise<DeploymentResult> {
    const record = await this.options.history.get(model, revision);
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
    this.checkTarget(record);
    return this.applyAndRecord(
      model,
      record.manifests,
      {
        ...options,
        cluster: record.cluster,
        namespace: record.namespace,
        overrides: record.overrides,
      },
      options.dryRun ? 'dry-run' : 'rollback',
      record.serverVersion,
      revision,
      // A rollback dry run is the history dialog asking what a rollback would change (issue 26):
      // a look, not a request, so it adds no row to the history it is shown from.
      !options.dryRun,
    );
  }

  async undeploy(
    model: string,
    target: DeployTarget & { actor: string; impersonateUser?: string },
  ): Promise<DeploymentResult> {
    const catalog = this.catalog();
    this.checkTarget(target);
    // The model's own objects, newest first. Shared objects (create-if-absent: the
    // ClusterServingRuntime, the namespace's weights PersistentVolumeClaim) stay: other models use them.
    const objects = renderManifests(
      catalog,
      resolveServer(catalog, model, {}, { locate: false }),
      { namespace: target.namespace },
    )
      .filter(isOwnedByModel)
      .reverse();
    const outcome = await this.options.applier.delete(
      target.cluster,
      objects,
      target.impersonateUser,
    );
    const message = outcome.ok
      ? undefined
      : outcome.results.find(r => r.action === 'failed')?.message;
    const record = await this.options.history.record({
      model,
      cluster: target.cluster,
      namespace: target.namespace,
      action: 'undeploy',
      outcome: outcome.ok ? 'succeeded' : 'failed',
      actor: target.actor,
      overrides: {},
      manifests: [],
      results: outcome.results,
      message,
    });
    this.options.fleet?.changed(target.cluster);
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

  async diff(
    model: string,
    target: DeployTarget,
    overrides: ServerOverrides,
    impersonateUser?: string,
  ): Promise<DiffResult> {
    const objects = this.render(model, overrides, target.namespace);
    this.checkTarget(target);
    const result: DiffResult['objects'] = [];
    for (const object of objects) {
      const live = await this.options.applier.read(
        target.cluster,
        object,
        impersonateUser,
      );
      result.push({
        kind: object.kind,
        name: object.name,
        namespace: object.namespace,
        applyPolicy: object.applyPolicy,
        exists: live !== undefined,
        changes: live ? diffObject(object.manifest, live) : [],
      });
    }
    // A shared object (create-if-absent) is never changed by a deploy: it is in sync once it exists,
    // whatever an administrator changed in it (its changes are still listed).
    const inSync = result.every(
      o => o.exists && (o.changes.length === 0 || !isOwnedByModel(o)),
    );
    return {
      model,
      cluster: target.cluster,
      namespace: target.namespace,
      objects: result,
      inSync,
    };
  }

  /**
   * The KServe status of the model wherever its last recorded deploy (or rollback) succeeded and
   * was not undeployed since: the Ready conditions, URL and what is wrong, in words; the endpoint
   * clients call (`selectEndpoint`); and for models with a weights download Job, its progress.
   */
  async status(
    model: string,
    impersonateUser?: string,
    options: { diagnose?: boolean } = {},
  ): Promise<ModelStatusResponse> {
    this.getModel(model);
    const records = await this.options.history.list(model, { limit: 500 });
    const latest = new Map<string, DeploymentRecord>();
    for (const r of records) {
      if (r.outcome !== 'succeeded' || r.action === 'dry-run') continue;
      const key = `${r.cluster}/${r.namespace}`;
      if (!latest.has(key)) latest.set(key, r);
    }
    const apiPrefix = this.apiPrefix(model);
    const catalog = this.catalog();
    const reading = statusReadingOf(
      catalog,
      catalog.models[model].config.server.runtime,
    );
    const items: ModelStatus[] = [];
    for (const record of latest.values()) {
      if (record.action === 'undeploy') continue;
      const main = record.manifests.find(o => isServerKind(catalog, o.kind));
      if (!main) continue;
      const where = {
        cluster: record.cluster,
        namespace: record.namespace,
        revision: record.revision!,
      };
      const gatewayBaseUrl = this.options.clusters.gatewayBaseUrl(
        record.cluster,
      );
      const job = record.manifests.find(
        o => o.kind === 'Job' && o.apiVersion === 'batch/v1',
      );
      const download = job
        ? await this.downloadStatus(record.cluster, job, impersonateUser)
        : undefined;
      try {
        const live = (await this.options.applier.read(
          record.cluster,
          main,
          impersonateUser,
        )) as Record<string, any> | undefined;
        const summary = live ? summarizeKServeStatus(live, reading) : undefined;
        items.push({
          ...where,
          found: live !== undefined,
          summary,
          endpoint: selectEndpoint({
            live,
            gatewayBaseUrl,
            cluster: record.cluster,
            apiPrefix,
            engine: this.engineOf(model),
          }),
          ...(download ? { download } : {}),
          ...(options.diagnose || summary?.ready !== true
            ? {
                diagnosis: await this.diagnosis(
                  model,
                  record,
                  main,
                  live,
                  job?.name,
                  impersonateUser,
                ),
              }
            : {}),
        });
      } catch (e) {
        items.push({
          ...where,
          found: false,
          error: (e as Error).message,
          ...(download ? { download } : {}),
        });
      }
    }
    return { items };
  }

  /**
   * Why the model is not Ready at a place it is deployed (see `diagnose`): its pods, their Events
   * and failed containers' log lines, matched against its engine's known signatures.
   */
  private async diagnosis(
    model: string,
    record: DeploymentRecord,
    main: RenderedObject,
    live: Record<string, any> | undefined,
    jobName: string | undefined,
    impersonateUser?: string,
  ): Promise<Diagnosis> {
    const catalog = this.catalog();
    const profile =
      catalog.runtimes[catalog.models[model]?.config.server.runtime]?.profile;
    const found = await DiagnosisReader.create({
      applier: this.options.applier,
    }).diagnoseNamespace(
      record.cluster,
      record.namespace,
      [
        {
          model,
          server: { kind: main.kind, name: main.name },
          serverLive: live,
          jobName,
          objectNames: record.manifests.map(o => o.name),
          signatures: signaturesFor(profile),
        },
      ],
      impersonateUser,
    );
    return found.get(model)!;
  }

  /** The model's engine name (its runtime's profile `engine`), for messages. */
  private engineOf(model: string): string | undefined {
    const catalog = this.catalog();
    return catalog.runtimes[catalog.models[model]?.config.server.runtime]
      ?.profile.engine;
  }

  /** The engine's own API path (plumbing `api_prefix`), for URLs that reach the engine directly. */
  private apiPrefix(model: string): string | undefined {
    try {
      return resolveServer(this.catalog(), model, {}, { locate: false })
        .plumbing.api_prefix?.value;
    } catch {
      return undefined;
    }
  }

  /**
   * The weights download Job and its pods (label `batch.kubernetes.io/job-name`, set by the Job
   * controller since Kubernetes 1.27), summarized by `summarizeJob`.
   */
  private async downloadStatus(
    cluster: string,
    job: RenderedObject,
    impersonateUser?: string,
  ): Promise<DownloadStatus> {
    const header = { name: job.name, namespace: job.namespace ?? '' };
    try {
      const live = await this.options.applier.read(
        cluster,
        job,
        impersonateUser,
      );
      if (!live) return { ...header, found: false };
      const pods =
        (await this.options.applier.list(
          cluster,
          { apiVersion: 'v1', kind: 'Pod' },
          `${JOB_NAME_LABEL}=${job.name}`,
          {
            namespace: job.namespace,
            impersonateUser,
          },
        )) ?? [];
      return { ...header, found: true, progress: summarizeJob(live, pods) };
    } catch (e) {
      return { ...header, found: false, error: (e as Error).message };
    }
  }

  /**
   * Applies one batch of a rollout: each target is a deploy recorded as a rollout (with the
   * rollout's id), `concurrency` at a time; a target this rollout already applied (a resumed task)
   * is not applied again. Once more than `maxFailures` targets failed, no new one starts; the rest
   * are `not-attempted`. `audit` is told each target's outcome.
   */
  async applyRollout(
    request: RolloutApplyRequest,
    options: {
      actor: string;
      impersonateUser?: string;
      audit?: (target: RolloutTargetResult) => Promise<void>;
    },
  ): Promise<RolloutApplyResult> {
    const key = (t: { model: string; cluster: string; namespace: string }) =>
      `${t.model}/${t.cluster}/${t.namespace}`;
    const done = new Map(
      (await this.options.history.appliedInRollout(request.rolloutId)).map(
        r => [key(r), r],
      ),
    );
    const rollout = {
      runtime: request.runtime,
      ...(request.version ? { version: request.version } : {}),
    };
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
      const t = request.targets[index];
      const where = {
        model: t.model,
        cluster: t.cluster,
        namespace: t.namespace,
      };
      const prior = done.get(key(t));
      if (prior) {
        items[index] = {
          ...where,
          outcome: 'already-applied',
          revision: prior.revision,
          ...(prior.serverVersion
            ? { serverVersion: prior.serverVersion }
            : {}),
        };
        return;
      }
      try {
        const server = this.checkDeploy(t.model, t.overrides, t, rollout);
        const result = await this.deployResolved(t.model, server, {
          ...where,
          overrides: t.overrides,
          dryRun: false,
          force: request.force ?? false,
          rollout,
          rolloutId: request.rolloutId,
          // The plan this rollout follows has just listed the live objects.
          lastSeen: o => this.options.fleet?.lastSeen?.(t.cluster, o),
          actor: options.actor,
          impersonateUser: options.impersonateUser,
        });
        items[index] = result.ok
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
        items[index] = {
          ...where,
          outcome: 'failed',
          message: (e as Error).message,
        };
      }
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

  /** The model's history, newest first, each row with its changes from the revision before it. */
  async history(model: string): Promise<DeploymentHistoryItem[]> {
    this.getModel(model);
    return withChangesFromPrevious(await this.options.history.list(model));
  }

  private async applyAndRecord(
    model: string,
    objects: RenderedObject[],
    options: DeployOptions & { skippedPreflight?: string[] },
    action: DeploymentRecord['action'],
    serverVersion: string | undefined,
    rollbackOf?: number,
    recorded = true,
  ): Promise<DeploymentResult> {
    const outcome: ApplyOutcome = await this.options.applier.apply(
      options.cluster,
      {
        objects,
        dryRun: options.dryRun,
        force: options.force,
        impersonateUser: options.impersonateUser,
        ...(options.lastSeen
          ? { lastSeen: objects.map(o => options.lastSeen!(o)) }
          : {}),
        ...(options.rolloutId ? { logLevel: 'debug' as const } : {}),
      },
    );
    const message = outcome.ok
      ? undefined
      : outcome.results.find(r => r.action === 'failed')?.message;
    // Not recorded (a rollback preview): an answer without a revision.
    const history = recorded
      ? this.options.history
      : { record: async () => ({ revision: undefined }) };
    const record = await history.record({
      model,
      cluster: options.cluster,
      namespace: options.namespace,
      action,
      outcome: outcome.ok ? 'succeeded' : 'failed',
      actor: options.actor,
      serverVersion,
      overrides: options.overrides,
      manifests: objects,
      results: outcome.results,
      message,
      rollbackOf,
      ...(options.rolloutId ? { rolloutId: options.rolloutId } : {}),
      ...(options.skippedPreflight
        ? { skippedPreflight: options.skippedPreflight }
        : {}),
    });
    if (!options.dryRun) this.options.fleet?.changed(options.cluster);
    // The endpoint clients call, as the status endpoint selects it (KServe's URL, else the cluster's
    // gateway). A rollout's answer has no endpoints (RolloutTargetResult), so it skips them.
    const catalog = this.catalog();
    const mainAt = objects.findIndex(o => isServerKind(catalog, o.kind));
    const endpoint =
      outcome.ok && !options.rolloutId && mainAt >= 0 && outcome.live[mainAt]
        ? selectEndpoint({
            live: outcome.live[mainAt] as Record<string, any>,
            gatewayBaseUrl: this.options.clusters.gatewayBaseUrl(
              options.cluster,
            ),
            cluster: options.cluster,
            apiPrefix: this.apiPrefix(model),
            engine: this.engineOf(model),
          }).baseUrl
        : undefined;
    return {
      ok: outcome.ok,
      ...(record.revision !== undefined ? { revision: record.revision } : {}),
      action,
      model,
      cluster: options.cluster,
      namespace: options.namespace,
      serverVersion,
      objects: outcome.results,
      message,
      failure: outcome.failure,
      endpoint,
    };
  }
}
