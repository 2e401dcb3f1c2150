import {
  envQueryParams,
  ModelManagerRestClient,
  readErrorAnswer,
  rolloutPlanParams,
  type QueryValue,
  type SentRequest,
} from '@model-manager/plugin-model-manager-common';
import type {
  DeploymentFailedResponse,
  DeploymentResult,
  DeployRequest,
  DeployTarget,
  DiffResult,
  FleetQuery,
  FleetResponse,
  ModelStatusResponse,
  PreflightResponse,
  RolloutPlan,
  RolloutPlanQuery,
  ServerOverrides,
} from '@model-manager/plugin-model-manager-common';

/** A refused request: what the portal said, and the HTTP status (0 when it could not be reached). */
export class PortalError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The result of a change the cluster refused (the answer's `deployment`). */
    readonly deployment?: DeploymentResult,
  ) {
    super(message);
    this.name = 'PortalError';
  }
}

/**
 * The model-manager REST API of a running portal, for CI pipelines: every change still passes
 * the portal's sign-in, permissions, audit and history. The token is a Backstage token (a static
 * token from `backend.auth.externalAccess`, or a user's).
 */
export class PortalClient {
  private readonly rest: ModelManagerRestClient;

  private constructor(
    private readonly options: {
      baseUrl: string;
      token?: string;
      fetch: typeof fetch;
    },
  ) {
    const { baseUrl, token } = options;
    this.rest = ModelManagerRestClient.create({
      fetch: (url, init) => options.fetch(url, init),
      baseUrl: () => baseUrl,
      token: () => token,
      unreachable: e => {
        const cause = (e as { cause?: { code?: string; message?: string } })
          .cause;
        return new PortalError(
          `cannot reach the portal at ${baseUrl}: ${
            cause?.code ?? cause?.message ?? (e as Error).message
          }; is it running, and is --portal (MODEL_MANAGER_PORTAL) its base URL?`,
          0,
        );
      },
      toError: (response, request) => this.errorOf(response, request),
    });
  }

  static create(options: {
    portal: string;
    token?: string;
    fetch?: typeof fetch;
  }): PortalClient {
    const base = options.portal.replace(/\/+$/, '');
    return new PortalClient({
      baseUrl: `${base}/api/model-manager`,
      token: options.token,
      fetch: options.fetch ?? fetch,
    });
  }

  fleet(query: FleetQuery): Promise<FleetResponse> {
    return this.rest.call('fleet', { query });
  }

  rolloutPlan(query: RolloutPlanQuery): Promise<RolloutPlan> {
    return this.rest.call('rolloutPlan', { query: rolloutPlanParams(query) });
  }

  status(model: string): Promise<ModelStatusResponse> {
    return this.rest.call('status', { params: { name: model } });
  }

  /** What a deploy with these overrides would change on the live objects. */
  diff(
    model: string,
    target: DeployTarget,
    overrides: ServerOverrides,
  ): Promise<DiffResult> {
    return this.rest.call('diff', {
      params: { name: model },
      query: targetQuery(target, overrides),
    });
  }

  /** Whether the target would accept and run the model with these overrides. */
  preflight(
    model: string,
    target: DeployTarget,
    overrides: ServerOverrides,
  ): Promise<PreflightResponse> {
    return this.rest.call('preflight', {
      params: { name: model },
      query: targetQuery(target, overrides),
    });
  }

  /** A deploy; a refused one resolves to its result (ok: false), with what was applied. */
  deploy(model: string, body: DeployRequest): Promise<DeploymentResult> {
    return refusedAsResult(
      this.rest.call('deploy', { params: { name: model }, body }),
    );
  }

  undeploy(model: string, target: DeployTarget): Promise<DeploymentResult> {
    return refusedAsResult(
      this.rest.call('undeploy', {
        params: { name: model },
        query: { cluster: target.cluster, namespace: target.namespace },
      }),
    );
  }

  /** An error answer as a PortalError naming the request, the status and the portal's message. */
  private async errorOf(
    res: Response,
    request: SentRequest,
  ): Promise<PortalError> {
    const { text, body, message: sent } = await readErrorAnswer(res);
    // An error answer: `{ error }`, with `deployment` when a cluster refused a change.
    const failure = body as Partial<DeploymentFailedResponse> | undefined;
    const message = sent ?? (text.slice(0, 300) || res.statusText);
    if (res.status === 401) {
      return new PortalError(
        `the portal refused the request (401 ${message}): ${
          this.options.token ? 'the token is not valid' : 'no token given'
        }; pass a Backstage token with --token or MODEL_MANAGER_TOKEN`,
        401,
      );
    }
    return new PortalError(
      `${request.method} ${request.path.split('?')[0]}: ${
        res.status
      } ${message}`,
      res.status,
      failure?.deployment,
    );
  }
}

/** A change the cluster refused answers with its result: that result, with what was applied. */
async function refusedAsResult(
  call: Promise<DeploymentResult>,
): Promise<DeploymentResult> {
  try {
    return await call;
  } catch (e) {
    if (e instanceof PortalError && e.deployment) return e.deployment;
    throw e;
  }
}

/** `cluster`, `namespace` and a deploy's overrides as the query of diff and preflight. */
function targetQuery(
  target: DeployTarget,
  overrides: ServerOverrides,
): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {
    cluster: target.cluster,
    namespace: target.namespace,
  };
  if (overrides.serverVersion) query.serverVersion = overrides.serverVersion;
  for (const [k, v] of envQueryParams(overrides.env))
    query[k] = [...((query[k] as string[] | undefined) ?? []), v];
  if (overrides.args?.length) query.arg = overrides.args;
  return query;
}
