import {
  isServerKind,
  selectEndpoint,
  type DeploymentResult,
  type RenderedObject,
} from '@model-manager/plugin-model-manager-common';
import type { DeploymentRecord } from '../../history';
import type { ApplyOutcome } from '../../kubernetes/types';
import { apiPrefixOf, endpointOptionsOf, engineOf } from '../modelEngine';
import type { DeployOptions, UseCaseContext } from '../types';

/** What {@link applyAndRecord} applies, and what its history row says. */
export interface ApplyAndRecord {
  model: string;
  objects: RenderedObject[];
  options: DeployOptions & { skippedPreflight?: string[] };
  action: DeploymentRecord['action'];
  serverVersion: string | undefined;
  /** The revision a rollback goes back to. */
  rollbackOf?: number;
  /**
   * The engine's API path, when the caller resolved the model (a deploy); otherwise it is read
   * from the catalog for the endpoint.
   */
  apiPrefix?: { value: string | undefined };
  /** False: no history row (a rollback preview: a look, not a request); default true. */
  recorded?: boolean;
}

/**
 * Applies `objects` (server-side apply) and records a history row with the outcome; tells the
 * fleet the cluster changed. The answer names the endpoint clients call, as the status endpoint
 * selects it (KServe's URL, else the cluster's gateway).
 */
export async function applyAndRecord(
  ctx: UseCaseContext,
  request: ApplyAndRecord,
): Promise<DeploymentResult> {
  const { model, objects, options, action, serverVersion } = request;
  const outcome: ApplyOutcome = await ctx.applier.apply(options.cluster, {
    objects,
    dryRun: options.dryRun,
    force: options.force,
    impersonateUser: options.impersonateUser,
    ...(options.lastSeen
      ? { lastSeen: objects.map(o => options.lastSeen!(o)) }
      : {}),
    ...(options.rolloutId ? { logLevel: 'debug' as const } : {}),
  });
  const message = outcome.ok
    ? undefined
    : outcome.results.find(r => r.action === 'failed')?.message;
  // Not recorded (a rollback preview): an answer without a revision.
  const history =
    request.recorded === false
      ? { record: async () => ({ revision: undefined }) }
      : ctx.history;
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
    rollbackOf: request.rollbackOf,
    ...(options.rolloutId ? { rolloutId: options.rolloutId } : {}),
    ...(options.skippedPreflight
      ? { skippedPreflight: options.skippedPreflight }
      : {}),
  });
  // With what the server answered (each object's resourceVersion), by which the watch cache
  // tells it has seen this write.
  if (!options.dryRun)
    ctx.fleet?.changed(
      options.cluster,
      outcome.ok ? { applied: outcome.live } : undefined,
    );
  // A rollout's answer has no endpoints (RolloutTargetResult), so it skips them.
  const catalog = ctx.catalog();
  const mainAt = objects.findIndex(o => isServerKind(catalog, o.kind));
  const endpoint =
    outcome.ok && !options.rolloutId && mainAt >= 0 && outcome.live[mainAt]
      ? selectEndpoint({
          live: outcome.live[mainAt] as Record<string, any>,
          gatewayBaseUrl: ctx.clusters.gatewayBaseUrl(options.cluster),
          cluster: options.cluster,
          apiPrefix: request.apiPrefix
            ? request.apiPrefix.value
            : apiPrefixOf(catalog, model),
          engine: engineOf(catalog, model),
          ...endpointOptionsOf(catalog, model),
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
