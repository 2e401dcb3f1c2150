import type { LoggerService } from '@backstage/backend-plugin-api';
import type {
  KubernetesObject,
  KubernetesObjectApi,
} from '@kubernetes/client-node';
import {
  diffObject,
  FIELD_MANAGER,
  type RenderedObject,
} from '@model-manager/plugin-model-manager-common';
import { clientNode } from './clientNode';
import { actionOf, doneBefore, header, replaceable } from './applyResults';
import { ClusterClients } from './ClusterClients';
import type { ClusterRegistry } from './ClusterRegistry';
import { describeFailure, objectLabel } from './describeFailure';
import { KubernetesApiError } from './KubernetesApiError';
import { checkObjectSizes } from './objectSize';
import { listObjects } from './listObjects';
import { replacedBecause } from './immutableFields';
import { sameContent } from './sameContent';
import { withRetry } from './withRetry';
import type {
  ApplyOutcome,
  ApplyRequest,
  DeletedObject,
  ObjectResult,
} from './types';

export interface ServerSideApplierOptions {
  clusters: ClusterRegistry;
  logger: LoggerService;
  fieldManager?: string;
  /** Timeout of one request (default 10 s). */
  requestTimeoutMs?: number;
  /** Attempts for retryable failures: 429, 5xx, connection errors, timeouts (default 4). */
  maxAttempts?: number;
  /** First backoff delay; doubles each attempt, capped at 5 s (default 250 ms). */
  retryBaseDelayMs?: number;
}

/**
 * Server-side apply of rendered objects with `@kubernetes/client-node`.
 *
 * Every real apply of several objects is preceded by a server-side dry run of each (`dryRun=All`,
 * sent concurrently), so a validation error or a field-manager conflict on the last object
 * applies nothing; a single object is read, then applied. Objects with policy `create-if-absent`
 * (the OpenVINO ClusterServingRuntime) are applied only when missing.
 * 429/5xx/connection errors are retried with exponential backoff up to a bound; 409 conflicts,
 * 422s and SSA's 500 "failed to create typed patch object" are never retried. The outcome lists
 * exactly which objects were applied and which were not.
 */
export class ServerSideApplier {
  private readonly clients: ClusterClients;
  private readonly fieldManager: string;
  private readonly requestTimeoutMs: number;
  private readonly maxAttempts: number;
  private readonly retryBaseDelayMs: number;

  private constructor(private readonly options: ServerSideApplierOptions) {
    this.fieldManager = options.fieldManager ?? FIELD_MANAGER;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 10_000;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 4);
    this.retryBaseDelayMs = options.retryBaseDelayMs ?? 250;
    this.clients = ClusterClients.create({
      clusters: options.clusters,
      requestTimeoutMs: this.requestTimeoutMs,
    });
  }

  static create(options: ServerSideApplierOptions): ServerSideApplier {
    return new ServerSideApplier(options);
  }

  /** @throws InputError for an object too large to store (checkObjectSizes), before any request. */
  async apply(cluster: string, request: ApplyRequest): Promise<ApplyOutcome> {
    const { objects } = request;
    checkObjectSizes(objects);
    const api = this.client(cluster, request.impersonateUser);
    const results: ObjectResult[] = objects.map(o => ({
      ...header(o),
      action: 'not-applied',
    }));
    const before: Array<KubernetesObject | undefined> = [];
    const skip: boolean[] = [];
    // Objects to delete and create again, with the immutable fields the change touches.
    const replace: Array<string[] | undefined> = [];

    // Preflight: dry-run every object we would apply (objects applied only when absent are read
    // instead). A dry-run create answers without a resourceVersion, which tells created from
    // changed without reading each object first; a dry run alone reads, to say what would change.
    // A single object needs no preflight, its apply being all-or-nothing by itself: it is read
    // instead (a read is cheaper for the API server than a dry run), to tell what the apply did,
    // unless the caller has just seen it (`lastSeen`: a rollout, from the fleet's LIST).
    const single = objects.length === 1 && !request.dryRun;
    const live: ApplyOutcome['live'] = [];
    const dry: Array<KubernetesObject | undefined> = [];
    // The objects are checked concurrently (nothing changes yet); the first failure in object
    // order is the one reported.
    const checked = await Promise.allSettled(
      objects.map(async (object, i) => {
        const seen = single ? request.lastSeen?.[i] : undefined;
        if (seen !== undefined) {
          before[i] = seen ?? undefined;
        } else if (
          object.applyPolicy === 'create-if-absent' ||
          request.dryRun ||
          single
        ) {
          before[i] = await this.read(api, object);
        }
        skip[i] =
          object.applyPolicy === 'create-if-absent' && before[i] !== undefined;
        if (skip[i]) {
          live[i] = before[i];
          results[i].action = 'exists';
          return;
        }
        if (single) return;
        try {
          dry[i] = await this.patch(api, object, true, request.force);
        } catch (e) {
          replace[i] = replaceable(object, e);
          if (!replace[i]) throw e;
        }
        live[i] = dry[i];
      }),
    );
    const failedAt = checked.findIndex(c => c.status === 'rejected');
    if (failedAt >= 0) {
      return this.failed(
        results,
        failedAt,
        (checked[failedAt] as PromiseRejectedResult).reason,
        // A single object is only read before its apply: no dry run was sent.
        single
          ? 'nothing was applied'
          : 'preflight (dry run), nothing was applied',
      );
    }
    if (request.dryRun) {
      for (let i = 0; i < objects.length; i++) {
        if (skip[i]) continue;
        // Told from the content: a dry run's answer keeps the live resourceVersion (sameContent).
        if (replace[i]) {
          results[i].action = 'replaced';
          results[i].message = replacedBecause(replace[i]!);
        } else
          results[i].action = !before[i]
            ? 'created'
            : sameContent(before[i], live[i])
            ? 'unchanged'
            : 'configured';
        // What the apply would change on the live object, field by field.
        if (before[i])
          results[i].changes = diffObject(objects[i].manifest, before[i]);
      }
      return { ok: true, results, live };
    }

    for (let i = 0; i < objects.length; i++) {
      if (skip[i]) continue;
      try {
        if (!replace[i]) {
          try {
            live[i] = await this.patch(api, objects[i], false, request.force);
          } catch (e) {
            replace[i] = replaceable(objects[i], e);
            if (!replace[i]) throw e;
          }
        }
        if (replace[i]) {
          live[i] = await this.recreate(api, objects[i], request.force);
          results[i].action = 'replaced';
          results[i].message = replacedBecause(replace[i]!);
        } else if (single) {
          results[i].action = actionOf(before[i], live[i]);
        } else {
          const existed = dry[i]?.metadata?.resourceVersion !== undefined;
          results[i].action = !existed
            ? 'created'
            : dry[i]!.metadata!.resourceVersion ===
              live[i]?.metadata?.resourceVersion
            ? 'unchanged'
            : 'configured';
        }
        this.options.logger[request.logLevel ?? 'info'](
          `applied ${objectLabel(objects[i])} to cluster ${cluster}: ${
            results[i].action
          }${
            results[i].action === 'replaced' ? ` (${results[i].message})` : ''
          }`,
        );
      } catch (e) {
        for (let j = i; j < objects.length; j++)
          results[j].action = 'not-applied';
        return this.failed(results, i, e, doneBefore(results, i, 'applied'));
      }
    }
    return { ok: true, results, live };
  }

  /** The live objects (undefined where absent). */
  async read(
    apiOrCluster: KubernetesObjectApi | string,
    object: RenderedObject,
    impersonateUser?: string,
  ): Promise<KubernetesObject | undefined> {
    const api =
      typeof apiOrCluster === 'string'
        ? this.client(apiOrCluster, impersonateUser)
        : apiOrCluster;
    try {
      return await this.withRetry(
        () =>
          api.read({
            apiVersion: object.apiVersion,
            kind: object.kind,
            metadata: { name: object.name, namespace: object.namespace },
          }),
        object,
      );
    } catch (e) {
      if (e instanceof KubernetesApiError && e.kind === 'not-found')
        return undefined;
      throw e;
    }
  }

  /** {@link listObjects}: every object of a kind matching a label selector, paged. */
  async list(
    cluster: string,
    type: { apiVersion: string; kind: string },
    labelSelector: string,
    options: { namespace?: string; impersonateUser?: string } = {},
  ): Promise<KubernetesObject[] | undefined> {
    return listObjects(
      this.clients.for(cluster, options.impersonateUser),
      (call, object) => this.withRetry(call, object),
      type,
      labelSelector,
      options.namespace,
    );
  }

  /**
   * The last lines of a container's log (`GET .../pods/{pod}/log`), `previous` for its last
   * terminated run. A refusal is thrown as a KubernetesApiError (403: `forbidden`, the kubelet's
   * "previous terminated container ... not found": `invalid`).
   */
  async readPodLog(
    cluster: string,
    ref: {
      namespace: string;
      pod: string;
      container: string;
      previous?: boolean;
      tailLines?: number;
    },
    impersonateUser?: string,
  ): Promise<string> {
    const { core } = this.clients.for(cluster, impersonateUser);
    return this.withRetry(
      () =>
        core.readNamespacedPodLog({
          name: ref.pod,
          namespace: ref.namespace,
          container: ref.container,
          previous: ref.previous,
          tailLines: ref.tailLines,
        }),
      { kind: 'Pod', name: `${ref.pod} log`, namespace: ref.namespace },
    );
  }

  /** Deletes objects (missing ones are reported as absent). Namespaced objects only by callers. */
  async delete(
    cluster: string,
    objects: RenderedObject[],
    impersonateUser?: string,
  ): Promise<{
    ok: boolean;
    results: ObjectResult[];
    failure?: ApplyOutcome['failure'];
    /** The objects deleted, as the API server answered (the watch cache's proof of the delete). */
    deleted: DeletedObject[];
  }> {
    const api = this.client(cluster, impersonateUser);
    const results: ObjectResult[] = objects.map(o => ({
      ...header(o),
      action: 'not-applied',
    }));
    const deleted: DeletedObject[] = [];
    for (let i = 0; i < objects.length; i++) {
      const o = objects[i];
      try {
        // A `Status` naming the object's uid when it is gone (test-assets/k8s-reference
        // 23-delete.txt); the object itself (with its deletionTimestamp and resourceVersion) while
        // finalizers hold it, as KServe's `inferenceservice.finalizers` does until its controller
        // has cleaned up (pkg/controller/v1beta1/inferenceservice/controller.go). client-node
        // reads either as a V1Status: `details.uid`, or `metadata.resourceVersion` (V1ListMeta
        // keeps it).
        const answer = await this.withRetry(
          () =>
            api.delete(
              {
                apiVersion: o.apiVersion,
                kind: o.kind,
                metadata: { name: o.name, namespace: o.namespace },
              },
              undefined,
              undefined,
              undefined,
              undefined,
              'Background',
            ),
          o,
        );
        results[i].action = 'deleted';
        deleted.push({
          apiVersion: o.apiVersion,
          kind: o.kind,
          name: o.name,
          namespace: o.namespace,
          uid: answer?.details?.uid,
          resourceVersion: answer?.metadata?.resourceVersion || undefined,
        });
      } catch (e) {
        if (
          e instanceof KubernetesApiError &&
          e.kind === 'not-found' &&
          e.message.includes(`"${o.name}" not found`)
        ) {
          results[i].action = 'absent';
          continue;
        }
        const outcome = this.failed(
          results,
          i,
          e,
          doneBefore(results, i, 'deleted'),
        );
        return {
          ok: false,
          results: outcome.results,
          failure: outcome.failure,
          deleted,
        };
      }
    }
    return { ok: true, results, deleted };
  }

  /**
   * Deletes an object whose change the API server refuses as immutable (propagationPolicy
   * Background: the object goes at once, its dependents — a Job's pods — after it; `Orphan`, the
   * default for batch/v1 Jobs, leaves the object behind with a finalizer until the garbage
   * collector removes it, and the create would find it still there) and applies it again,
   * creating it.
   *
   * Replacing rather than naming the Job after a hash of what it downloads keeps one name per
   * model: undeploy, the fleet, the status read and the GitOps output find it by that name, no
   * finished Jobs of earlier downloads pile up until their TTL, and no two download Jobs of a model
   * ever write to the same weights folder at once (a Job still running when its template changes
   * is stopped by the delete).
   */
  private async recreate(
    api: KubernetesObjectApi,
    object: RenderedObject,
    force: boolean,
  ): Promise<KubernetesObject> {
    try {
      await this.withRetry(
        () =>
          api.delete(
            {
              apiVersion: object.apiVersion,
              kind: object.kind,
              metadata: { name: object.name, namespace: object.namespace },
            },
            undefined,
            undefined,
            undefined,
            undefined,
            'Background',
          ),
        object,
      );
    } catch (e) {
      if (!(e instanceof KubernetesApiError && e.kind === 'not-found')) throw e;
    }
    return this.patch(api, object, false, force);
  }

  private async patch(
    api: KubernetesObjectApi,
    object: RenderedObject,
    dryRun: boolean,
    force: boolean,
  ): Promise<KubernetesObject> {
    return this.withRetry(
      () =>
        api.patch(
          object.manifest as KubernetesObject,
          undefined,
          dryRun ? 'All' : undefined,
          this.fieldManager,
          force,
          clientNode().PatchStrategy.ServerSideApply,
        ),
      object,
    );
  }

  private failed(
    results: ObjectResult[],
    index: number,
    error: unknown,
    what: string,
  ): ApplyOutcome {
    const failure = describeFailure(
      results[index],
      error,
      what,
      this.maxAttempts,
    );
    this.options.logger.warn(results[index].message!);
    return { ok: false, results, failure, live: [] };
  }

  private withRetry<T>(
    call: () => Promise<T>,
    object: { kind: string; name: string; namespace?: string },
  ): Promise<T> {
    return withRetry(call, {
      maxAttempts: this.maxAttempts,
      baseDelayMs: this.retryBaseDelayMs,
      label: objectLabel(object),
      logger: this.options.logger,
    });
  }

  /** The object client of `cluster` for `impersonateUser`. */
  private client(
    cluster: string,
    impersonateUser?: string,
  ): KubernetesObjectApi {
    return this.clients.for(cluster, impersonateUser).objects;
  }
}
