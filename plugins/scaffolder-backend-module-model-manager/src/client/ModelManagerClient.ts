import {
  ModelManagerRestClient,
  readErrorAnswer,
  readFleetEvents,
  rolloutPlanParams,
  type SentRequest,
} from '@model-manager/plugin-model-manager-common';
import type {
  AuthService,
  BackstageCredentials,
  DiscoveryService,
} from '@backstage/backend-plugin-api';
import {
  AuthenticationError,
  ConflictError,
  InputError,
  NotAllowedError,
  NotFoundError,
  ServiceUnavailableError,
} from '@backstage/errors';
import { DeploymentFailedError } from './DeploymentFailedError';
import { PreflightRefusedError } from './PreflightRefusedError';
import type {
  DeploymentFailedResponse,
  FleetQuery,
  PreflightFailedResponse,
  FleetResponse,
  RolloutApplyRequest,
  RolloutApplyResult,
  RolloutPlan,
  RolloutPlanQuery,
  DeploymentResult,
  DeployRequest,
  DeployTarget,
  DiffResult,
  ModelStatus,
  RenderRequest,
  RenderResponse,
} from './types';

/** The plugin id the model-manager backend is mounted under (`/api/model-manager`). */
export const MODEL_MANAGER_PLUGIN_ID = 'model-manager';

export interface ModelManagerClientOptions {
  discovery: DiscoveryService;
  auth: AuthService;
}

const ERROR_BY_STATUS: Record<number, new (message: string) => Error> = {
  400: InputError,
  401: AuthenticationError,
  403: NotAllowedError,
  404: NotFoundError,
  409: ConflictError,
  503: ServiceUnavailableError,
};

/**
 * Calls the model-manager backend over REST on behalf of a user. Each request carries a token
 * issued on behalf of the given credentials, so the backend's permission check, audit event and
 * history row name that user. Errors keep the backend's message verbatim.
 */
export class ModelManagerClient {
  private constructor(private readonly options: ModelManagerClientOptions) {}

  static create(options: ModelManagerClientOptions): ModelManagerClient {
    return new ModelManagerClient(options);
  }

  /**
   * `POST /models/:name/deploy`.
   * @throws DeploymentFailedError when the cluster refused (with the per-object results);
   * InputError / NotFoundError / NotAllowedError for a bad request, an unknown model or a denied
   * permission (nothing was applied).
   */
  async deploy(
    model: string,
    request: DeployRequest,
    credentials: BackstageCredentials,
  ): Promise<DeploymentResult> {
    return this.rest(credentials).call('deploy', {
      params: { name: model },
      body: request,
    });
  }

  /**
   * `POST /models/:name/render`: the objects a deploy with these overrides would apply, from the
   * backend's catalog. With a cluster, the backend checks it and its namespace allowlist as for a
   * deploy; nothing reaches a cluster.
   */
  async render(
    model: string,
    request: RenderRequest,
    credentials: BackstageCredentials,
  ): Promise<RenderResponse> {
    return this.rest(credentials).call('render', {
      params: { name: model },
      body: request,
    });
  }

  /** `DELETE /models/:name/deployment?cluster=&namespace=`; errors as for {@link deploy}. */
  async undeploy(
    model: string,
    target: DeployTarget,
    credentials: BackstageCredentials,
  ): Promise<DeploymentResult> {
    return this.rest(credentials).call('undeploy', {
      params: { name: model },
      query: { cluster: target.cluster, namespace: target.namespace },
    });
  }

  /** `GET /models/:name/diff?cluster=&namespace=`: which of the model's objects exist (read only). */
  async diff(
    model: string,
    target: DeployTarget,
    credentials: BackstageCredentials,
  ): Promise<DiffResult> {
    return this.rest(credentials).call('diff', {
      params: { name: model },
      query: { cluster: target.cluster, namespace: target.namespace },
    });
  }

  /**
   * `GET /models/:name/status`, narrowed to one cluster and namespace: the KServe status of the
   * model there, or undefined when it has no successful deploy there on record.
   */
  async status(
    model: string,
    target: DeployTarget,
    credentials: BackstageCredentials,
  ): Promise<ModelStatus | undefined> {
    const { items } = await this.rest(credentials).call('status', {
      params: { name: model },
    });
    return items.find(
      i => i.cluster === target.cluster && i.namespace === target.namespace,
    );
  }

  /** `GET /rollouts/plan`: the targets a rollout would move, and those it would not and why. */
  async rolloutPlan(
    query: RolloutPlanQuery,
    credentials: BackstageCredentials,
  ): Promise<RolloutPlan> {
    return this.rest(credentials).call('rolloutPlan', {
      query: rolloutPlanParams(query),
    });
  }

  /**
   * `POST /rollouts/apply`: one batch of a rollout's targets, each a deploy as the user, recorded
   * as a rollout; targets this rollout already applied are not applied again.
   */
  async rolloutApply(
    request: RolloutApplyRequest,
    credentials: BackstageCredentials,
  ): Promise<RolloutApplyResult> {
    return this.rest(credentials).call('rolloutApply', { body: request });
  }

  /** `GET /fleet`: every deployment target, filtered. */
  async fleet(
    query: FleetQuery,
    credentials: BackstageCredentials,
  ): Promise<FleetResponse> {
    return this.rest(credentials).call('fleet', { query });
  }

  /**
   * Follows `GET /fleet/events` (Server-Sent Events of the backend's watch cache) as `credentials`:
   * `onChange` gets the clusters that changed. Nothing happens when the backend has no watch cache
   * (404); the returned function stops it.
   */
  watchFleet(
    credentials: BackstageCredentials,
    onChange: (clusters: string[]) => void,
  ): () => void {
    const { discovery, auth } = this.options;
    return readFleetEvents({
      open: async signal => {
        const base = await discovery.getBaseUrl(MODEL_MANAGER_PLUGIN_ID);
        const { token } = await auth.getPluginRequestToken({
          onBehalfOf: credentials,
          targetPluginId: MODEL_MANAGER_PLUGIN_ID,
        });
        return fetch(`${base}/fleet/events`, {
          headers: { Authorization: `Bearer ${token}` },
          signal,
        });
      },
      onChange,
    });
  }

  /**
   * The contract's client with this module's transport: the backend's URL from discovery, a token
   * issued on behalf of `credentials`, and the backend's errors as @backstage/errors classes.
   */
  private rest(credentials: BackstageCredentials): ModelManagerRestClient {
    const { discovery, auth } = this.options;
    return ModelManagerRestClient.create({
      fetch: (url, init) => fetch(url, init),
      baseUrl: () => discovery.getBaseUrl(MODEL_MANAGER_PLUGIN_ID),
      token: async () =>
        (
          await auth.getPluginRequestToken({
            onBehalfOf: credentials,
            targetPluginId: MODEL_MANAGER_PLUGIN_ID,
          })
        ).token,
      unreachable: (e, { method, url }) =>
        new ServiceUnavailableError(
          `could not reach the model-manager backend at ${method} ${url}: ${
            (e as Error).message
          }; is the model-manager plugin installed in this backend?`,
        ),
      toError: errorOf,
    });
  }
}

/**
 * An error answer as an error of @backstage/errors with the backend's message:
 * DeploymentFailedError when a cluster refused a change (with its per-object results),
 * PreflightRefusedError when a preflight check refused a deploy (with the checks).
 */
async function errorOf(
  response: Response,
  request: SentRequest,
): Promise<Error> {
  const { text, body: data, message } = await readErrorAnswer(response);
  // An error answer: `{ error }`, with `deployment` when a cluster refused a change.
  const failure = data as Partial<DeploymentFailedResponse> | undefined;
  if (failure?.deployment && message)
    return new DeploymentFailedError(message, failure.deployment);
  // Refused by preflight: the checks come along, so the action can say how to apply anyway.
  const refusal = data as Partial<PreflightFailedResponse> | undefined;
  if (
    response.status === 409 &&
    refusal?.error?.name === 'PreflightFailedError' &&
    Array.isArray(refusal.checks) &&
    message
  )
    return new PreflightRefusedError(message, refusal.checks);
  const ErrorClass = ERROR_BY_STATUS[response.status];
  if (message && ErrorClass) return new ErrorClass(message);
  return new Error(
    `the model-manager backend answered ${response.status} ${
      response.statusText
    } to ${request.method} ${request.url}: ${
      message ?? (text.slice(0, 300) || 'no body')
    }`,
  );
}
