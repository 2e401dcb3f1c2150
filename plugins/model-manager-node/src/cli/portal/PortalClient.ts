import {
  envQueryParams,
  rolloutPlanParams,
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
  constructor(message: string, readonly status: number) {
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
  private constructor(
    private readonly options: {
      baseUrl: string;
      token?: string;
      fetch: typeof fetch;
    },
  ) {}

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
    return this.request('GET', `/fleet?${params(query)}`);
  }

  rolloutPlan(query: RolloutPlanQuery): Promise<RolloutPlan> {
    return this.request(
      'GET',
      `/rollouts/plan?${params(rolloutPlanParams(query))}`,
    );
  }

  status(model: string): Promise<ModelStatusResponse> {
    return this.request('GET', `/models/${encodeURIComponent(model)}/status`);
  }

  /** What a deploy with these overrides would change on the live objects. */
  diff(
    model: string,
    target: DeployTarget,
    overrides: ServerOverrides,
  ): Promise<DiffResult> {
    return this.request(
      'GET',
      `/models/${encodeURIComponent(model)}/diff?${targetQuery(
        target,
        overrides,
      )}`,
    );
  }

  /** Whether the target would accept and run the model with these overrides. */
  preflight(
    model: string,
    target: DeployTarget,
    overrides: ServerOverrides,
  ): Promise<PreflightResponse> {
    return this.request(
      'GET',
      `/models/${encodeURIComponent(model)}/preflight?${targetQuery(
        target,
        overrides,
      )}`,
    );
  }

  /** A deploy; a refused one resolves to its result (ok: false), with what was applied. */
  deploy(model: string, body: DeployRequest): Promise<DeploymentResult> {
    return this.request(
      'POST',
      `/models/${encodeURIComponent(model)}/deploy`,
      body,
      true,
    );
  }

  undeploy(model: string, target: DeployTarget): Promise<DeploymentResult> {
    return this.request(
      'DELETE',
      `/models/${encodeURIComponent(model)}/deployment?${new URLSearchParams(
        target,
      )}`,
      undefined,
      true,
    );
  }

  private async request<T>(
    method: string,
    path: string,
    body?: unknown,
    deployment = false,
  ): Promise<T> {
    const url = `${this.options.baseUrl}${path}`;
    let res: Response;
    try {
      res = await this.options.fetch(url, {
        method,
        headers: {
          ...(this.options.token
            ? { Authorization: `Bearer ${this.options.token}` }
            : {}),
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } })
        .cause;
      throw new PortalError(
        `cannot reach the portal at ${this.options.baseUrl}: ${
          cause?.code ?? cause?.message ?? (e as Error).message
        }; is it running, and is --portal (MODEL_MANAGER_PORTAL) its base URL?`,
        0,
      );
    }
    const text = await res.text();
    let data: any;
    try {
      data = text ? JSON.parse(text) : undefined;
    } catch {
      data = undefined;
    }
    if (res.ok) return data as T;
    // An error answer: `{ error }`, with `deployment` when a cluster refused a change.
    const failure = data as Partial<DeploymentFailedResponse> | undefined;
    if (deployment && failure?.deployment) return failure.deployment as T;
    const message =
      typeof failure?.error?.message === 'string'
        ? failure.error.message
        : text.slice(0, 300) || res.statusText;
    if (res.status === 401) {
      throw new PortalError(
        `the portal refused the request (401 ${message}): ${
          this.options.token ? 'the token is not valid' : 'no token given'
        }; pass a Backstage token with --token or MODEL_MANAGER_TOKEN`,
        401,
      );
    }
    throw new PortalError(
      `${method} ${path.split('?')[0]}: ${res.status} ${message}`,
      res.status,
    );
  }
}

/** `cluster`, `namespace` and a deploy's overrides as the query of diff and preflight. */
function targetQuery(
  target: DeployTarget,
  overrides: ServerOverrides,
): URLSearchParams {
  const query = new URLSearchParams({
    cluster: target.cluster,
    namespace: target.namespace,
  });
  if (overrides.serverVersion)
    query.set('serverVersion', overrides.serverVersion);
  for (const [k, v] of envQueryParams(overrides.env)) query.append(k, v);
  for (const a of overrides.args ?? []) query.append('arg', a);
  return query;
}

function params(query: Record<string, string | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== '') p.set(k, v);
  return p.toString();
}
