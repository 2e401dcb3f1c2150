import type {
  AuthService,
  DiscoveryService,
} from '@backstage/backend-plugin-api';
import type { FleetResponse } from '@model-manager/plugin-model-manager-common';
import type { ModelDeployments } from './types';

/** Reads where the models are deployed and the URL KServe reports there. */
export interface DeploymentReader {
  read(): Promise<ModelDeployments>;
}

/**
 * The deployments of a fleet answer with a URL (`endpoint`: the URL KServe reports for the model's
 * object), per model, in cluster and namespace order. Pure.
 */
export function deploymentsOf(
  fleet: Pick<FleetResponse, 'items'>,
): ModelDeployments {
  const byModel: ModelDeployments = {};
  for (const target of fleet.items) {
    if (!target.endpoint || !/^https?:\/\//.test(target.endpoint)) continue;
    (byModel[target.model] ??= []).push({
      cluster: target.cluster,
      namespace: target.namespace,
      url: target.endpoint,
    });
  }
  for (const list of Object.values(byModel)) {
    list.sort((a, b) =>
      `${a.cluster}/${a.namespace}`.localeCompare(
        `${b.cluster}/${b.namespace}`,
      ),
    );
  }
  return byModel;
}

/**
 * Reads the model-manager backend's `GET /fleet` (what runs where, read from the clusters) as this
 * plugin, with a service token.
 */
export class FleetDeploymentReader implements DeploymentReader {
  private constructor(
    private readonly deps: { discovery: DiscoveryService; auth: AuthService },
  ) {}

  static create(deps: {
    discovery: DiscoveryService;
    auth: AuthService;
  }): FleetDeploymentReader {
    return new FleetDeploymentReader(deps);
  }

  async read(): Promise<ModelDeployments> {
    const { discovery, auth } = this.deps;
    const base = await discovery.getBaseUrl('model-manager');
    const { token } = await auth.getPluginRequestToken({
      onBehalfOf: await auth.getOwnServiceCredentials(),
      targetPluginId: 'model-manager',
    });
    const res = await fetch(`${base}/fleet`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    if (!res.ok)
      throw new Error(
        `GET ${base}/fleet answered ${res.status} ${res.statusText}`,
      );
    return deploymentsOf((await res.json()) as FleetResponse);
  }
}
