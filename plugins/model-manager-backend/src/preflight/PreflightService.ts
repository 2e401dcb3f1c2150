import { InputError } from '@backstage/errors';
import {
  controllerGatewayOf,
  controllerKindsOf,
  controllerTlsOf,
  gatewayClassOf,
  gatewayConfigOf,
  renderManifests,
  resolveServer,
  type Catalog,
  type DeployTarget,
  type PreflightCheck,
  type PreflightResponse,
  type RenderedObject,
  type ResolvedServer,
  type ServerOverrides,
} from '@model-manager/plugin-model-manager-common';
import {
  discoveryPath,
  gatewayClassPath,
  gatewayPath,
  groupPath,
} from './paths';
import type { PreflightReader } from './PreflightReader';
import {
  controllerGatewayName,
  pathsToRead,
  referencedGateways,
} from './renderedNeeds';
import { runChecks } from './runChecks';
import type { ClusterReads, Read } from './types';

const ENGINE_TITLE = "The model's settings pass the engine's rules";

/**
 * Preflight: will this target accept and run this model? The engine's own checks (the resolver:
 * MoE-only flags, KV cache, weights format), then what the cluster serves and holds, read once
 * (see {@link PreflightReader}) and judged by pure checks (`runChecks`).
 */
export class PreflightService {
  private constructor(
    private readonly options: {
      reader: PreflightReader;
      catalog: () => Catalog;
    },
  ) {}

  static create(options: PreflightService['options']): PreflightService {
    return new PreflightService(options);
  }

  /** A session whose reads several targets share (a rollout plan). */
  session(impersonateUser?: string): ClusterReads {
    return this.options.reader.session(impersonateUser);
  }

  /**
   * The checks of one target.
   * @throws NotFoundError for an unknown model or server version.
   */
  async preflight(
    model: string,
    target: DeployTarget,
    overrides: ServerOverrides,
    options: { impersonateUser?: string; session?: ClusterReads } = {},
  ): Promise<PreflightResponse> {
    const catalog = this.options.catalog();
    let server: ResolvedServer;
    try {
      server = resolveServer(catalog, model, overrides, { locate: false });
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      return {
        model,
        ...target,
        checks: [
          {
            id: 'engine',
            title: ENGINE_TITLE,
            status: 'fail',
            message: e.message,
            fix: 'change the setting the message names (models.yaml or the request), then check again',
          },
        ],
      };
    }
    const objects = renderManifests(catalog, server, {
      namespace: target.namespace,
    });
    const checks = await this.checks(
      catalog,
      { server, objects },
      target,
      options.session ?? this.session(options.impersonateUser),
    );
    return { model, ...target, checks };
  }

  /** The checks of a model already resolved and rendered for the target. */
  async checks(
    catalog: Catalog,
    rendered: { server: ResolvedServer; objects: RenderedObject[] },
    target: DeployTarget,
    session: ClusterReads,
  ): Promise<PreflightCheck[]> {
    const { server, objects } = rendered;
    const controllerGateway = controllerGatewayOf(catalog, server);
    const controllerTls = controllerTlsOf(catalog, server);
    const controllerKinds = controllerKindsOf(catalog, server);
    const gatewayConfig = gatewayConfigOf(catalog, server);
    const gatewayClass = gatewayClassOf(catalog, server);
    const reads = await readAll(
      session,
      target.cluster,
      pathsToRead(
        objects,
        target.namespace,
        controllerGateway,
        controllerTls,
        controllerKinds,
        gatewayConfig,
        gatewayClass,
      ),
    );
    // Second round, only where a group version is not served: the group's versions, for the
    // message; and the controller's Gateway when its config names another than the default.
    const second = [
      ...new Set([...objects, ...controllerKinds].map(o => o.apiVersion)),
    ]
      .filter(
        v =>
          v.includes('/') &&
          reads.get(discoveryPath(v))?.ok &&
          (reads.get(discoveryPath(v)) as any).body === null,
      )
      .map(v => groupPath(v.split('/')[0]));
    if (controllerGateway) {
      const g = controllerGatewayName(controllerGateway, reads);
      if (!reads.has(gatewayPath(g.namespace, g.name)))
        second.push(gatewayPath(g.namespace, g.name));
    }
    // The classes of the rendered routes' Gateways, once read: which controller serves them.
    if (gatewayClass)
      for (const g of referencedGateways(objects)) {
        const read = reads.get(gatewayPath(g.namespace, g.name));
        const className = read?.ok
          ? read.body?.spec?.gatewayClassName
          : undefined;
        if (typeof className === 'string' && className !== '') {
          const path = gatewayClassPath(className);
          if (!reads.has(path) && !second.includes(path)) second.push(path);
        }
      }
    if (second.length > 0)
      for (const [path, read] of await readAll(session, target.cluster, second))
        reads.set(path, read);
    const engine =
      catalog.runtimes[server.runtime]?.profile.engine ?? server.runtime;
    return [
      {
        id: 'engine',
        title: ENGINE_TITLE,
        status: 'pass',
        message: `${engine} accepts the settings of ${server.model}: MoE-only flags, KV cache size and weights format`,
      },
      ...runChecks({
        cluster: target.cluster,
        namespace: target.namespace,
        server,
        objects,
        reads,
        ...(controllerGateway ? { controllerGateway } : {}),
        ...(controllerTls ? { controllerTls } : {}),
        ...(controllerKinds.length > 0 ? { controllerKinds } : {}),
        ...(gatewayConfig.length > 0 ? { gatewayConfig } : {}),
        ...(gatewayClass ? { gatewayClass } : {}),
      }),
    ];
  }
}

async function readAll(
  session: ClusterReads,
  cluster: string,
  paths: string[],
): Promise<Map<string, Read>> {
  const answers = await Promise.all(
    paths.map(p =>
      session.get(cluster, p, p.includes('/secrets/') ? 'metadata' : undefined),
    ),
  );
  return new Map(paths.map((p, i) => [p, answers[i]]));
}
