import {
  diffObject,
  isOwnedByModel,
  isServerKind,
  progressObjectOf,
  selectEndpoint,
  statusReadingOf,
  summarizeKServeStatus,
  type DeployTarget,
  type DiffResult,
  type ModelStatus,
  type ModelStatusResponse,
  type RenderedObject,
} from '@model-manager/plugin-model-manager-common';
import type { DeploymentRecord } from '../../history';
import { withSync } from '../../sync';
import { apiPrefixOf, endpointOptionsOf, engineOf } from '../modelEngine';
import type { UseCaseContext } from '../types';
import { diagnose, downloadStatus } from './readLive';

/** What {@link StatusUseCase.status} reads once per request, for each place. */
interface StatusAt {
  model: string;
  impersonateUser?: string;
  diagnose?: boolean;
  apiPrefix: string | undefined;
  reading: ReturnType<typeof statusReadingOf>;
}

/** What runs where a model is deployed, and how it differs from what a deploy would apply. */
export class StatusUseCase {
  constructor(private readonly ctx: UseCaseContext) {}

  /**
   * The KServe status of the model wherever its last recorded deploy (or rollback) succeeded and
   * was not undeployed since: the Ready conditions, URL and what is wrong, in words; the endpoint
   * clients call (`selectEndpoint`); for models with a weights download Job, its progress; and
   * each target's sync state from the fleet, when the fleet answers.
   */
  async status(
    model: string,
    impersonateUser?: string,
    options: { diagnose?: boolean } = {},
  ): Promise<ModelStatusResponse> {
    this.ctx.getModel(model);
    const records = await this.ctx.history.list(model, { limit: 500 });
    const latest = new Map<string, DeploymentRecord>();
    for (const r of records) {
      if (r.outcome !== 'succeeded' || r.action === 'dry-run') continue;
      const key = `${r.cluster}/${r.namespace}`;
      if (!latest.has(key)) latest.set(key, r);
    }
    const catalog = this.ctx.catalog();
    const at: StatusAt = {
      model,
      impersonateUser,
      diagnose: options.diagnose,
      apiPrefix: apiPrefixOf(catalog, model),
      reading: statusReadingOf(
        catalog,
        catalog.models[model].config.server.runtime,
      ),
    };
    const items: ModelStatus[] = [];
    for (const record of latest.values()) {
      if (record.action === 'undeploy') continue;
      const item = await this.statusAt(record, at);
      if (item) items.push(item);
    }
    const fleet = this.ctx.fleet;
    const readFleet = fleet?.fleet?.bind(fleet);
    return readFleet
      ? withSync({ items }, model, { fleet: readFleet })
      : { items };
  }

  /** The status at the place of one history row (undefined: it applied no server object). */
  private async statusAt(
    record: DeploymentRecord,
    { model, impersonateUser, apiPrefix, reading, ...options }: StatusAt,
  ): Promise<ModelStatus | undefined> {
    const catalog = this.ctx.catalog();
    const main = record.manifests.find(o => isServerKind(catalog, o.kind));
    if (!main) return undefined;
    const where = {
      cluster: record.cluster,
      namespace: record.namespace,
      revision: record.revision!,
    };
    const gatewayBaseUrl = this.ctx.clusters.gatewayBaseUrl(record.cluster);
    // The object the runtime's profile says reports the download (OVMS: its `ovms --pull` Job).
    const progress = progressObjectOf(
      catalog,
      catalog.models[model].config.server.runtime,
      record.manifests,
    );
    const download = progress
      ? await downloadStatus(
          this.ctx.applier,
          record.cluster,
          progress,
          impersonateUser,
        )
      : undefined;
    try {
      const live = await this.liveOf(record.cluster, main, impersonateUser);
      const summary = live
        ? summarizeKServeStatus(
            live,
            reading,
            await this.judgedRoutes(record, reading, impersonateUser),
          )
        : undefined;
      return {
        ...where,
        found: live !== undefined,
        summary,
        endpoint: selectEndpoint({
          live,
          gatewayBaseUrl,
          cluster: record.cluster,
          apiPrefix,
          engine: engineOf(catalog, model),
          ...endpointOptionsOf(catalog, model),
        }),
        ...(download ? { download } : {}),
        ...(options.diagnose || summary?.ready !== true
          ? {
              diagnosis: await diagnose(this.ctx, {
                model,
                record,
                main,
                live,
                progress,
                impersonateUser,
              }),
            }
          : {}),
      };
    } catch (e) {
      return {
        ...where,
        found: false,
        error: (e as Error).message,
        ...(download ? { download } : {}),
      };
    }
  }

  /**
   * An object as live: from the fleet's watch when it holds it (not when impersonating: then the
   * read is the user's, with their permissions), else read; undefined when it is not there.
   */
  private async liveOf(
    cluster: string,
    object: RenderedObject,
    impersonateUser: string | undefined,
  ): Promise<Record<string, any> | undefined> {
    const watched = impersonateUser
      ? undefined
      : this.ctx.fleet?.watched?.(cluster, object);
    return (
      watched !== undefined
        ? watched ?? undefined
        : await this.ctx.applier.read(cluster, object, impersonateUser)
    ) as Record<string, any> | undefined;
  }

  /**
   * The model's route objects whose controllers' verdicts the profile reads (`status.refusals`),
   * as live: its own, and those a controller makes from them (`made_from`: same name and
   * namespace, e.g. the HTTPRoute Envoy AI Gateway makes from the AIGatewayRoute).
   */
  private async judgedRoutes(
    record: DeploymentRecord,
    reading: StatusAt['reading'],
    impersonateUser: string | undefined,
  ): Promise<Array<Record<string, any>>> {
    const rules = reading?.refusals ?? [];
    // The objects judged, and those the made ones are made from (a made one counts beside it).
    const kinds = new Set(rules.map(r => r.madeFrom ?? r.kind));
    const own = record.manifests.filter(o => kinds.has(o.kind));
    // Each made object once, however many of its conditions the profile reads.
    const made = [
      ...new Map(
        rules.flatMap(rule =>
          rule.madeFrom && rule.apiVersion
            ? record.manifests
                .filter(o => o.kind === rule.madeFrom)
                .map(o => {
                  const m = {
                    ...o,
                    apiVersion: rule.apiVersion!,
                    kind: rule.kind,
                  };
                  return [`${m.apiVersion}/${m.kind}/${m.name}`, m] as const;
                })
            : [],
        ),
      ).values(),
    ];
    const live = await Promise.all([
      ...own.map(o => this.liveOf(record.cluster, o, impersonateUser)),
      // A made object is only a verdict to read: when its kind is not served or not readable
      // there, there is no verdict, and the status stands without it.
      ...made.map(o =>
        this.liveOf(record.cluster, o, impersonateUser).catch(() => undefined),
      ),
    ]);
    return live.filter((o): o is Record<string, any> => o !== undefined);
  }

  /** `GET /models/:name/diff`: what a deploy with these overrides would change, object by object. */
  async diff(
    objects: RenderedObject[],
    model: string,
    target: DeployTarget,
    impersonateUser?: string,
  ): Promise<DiffResult> {
    const result: DiffResult['objects'] = [];
    for (const object of objects) {
      const live = await this.ctx.applier.read(
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
}
