import { ROUTING_ANNOTATION } from '../constants';

/** Where a model's client endpoint came from. */
export type EndpointSource =
  /** the object's `status.url`, as KServe reports it */
  | 'status-url'
  /** the object's `status.address.url` / `status.addresses[].url` */
  | 'status-addresses'
  /** the cluster's gateway base URL from config (`modelManager.kubernetes.clusters.<name>.gatewayBaseUrl`) */
  | 'gateway'
  /** none: not deployed yet, or deployed but no URL is known */
  | 'none';

/** The URL clients call a deployed model at, and where it came from. */
export type ModelEndpoint = {
  source: EndpointSource;
  /**
   * What an OpenAI client takes as `base_url` (the operations are below it: `<baseUrl>/chat/completions`),
   * e.g. `https://gateway.example.com/v1`. Absent when `source` is `none`.
   */
  baseUrl?: string;
  /** One sentence for people: where the URL comes from, or why there is none. */
  message: string;
  /**
   * The model is routed by the AI gateway (routing `aigateway`) but `baseUrl` reaches the engine
   * directly (its own API path, e.g. OVMS's `/v3`): no gateway base URL is configured. Clients
   * call the gateway's `/v1` instead; the direct URL is for debugging inside the cluster.
   */
  bypassesGateway?: boolean;
};

/**
 * How clients reach a model, per plumbing `routing` (the `model-manager.io/routing` annotation of
 * the model's object): which sources are tried, in order, and the path clients put after each.
 *
 * - `epp` (vLLM, LLMInferenceService): KServe creates the Gateway, HTTPRoute and scheduler for the
 *   managed router and reports the route's URL in `status.url` (and `status.addresses`); vLLM serves
 *   the OpenAI API under `/v1`. The cluster's gateway is the fallback while KServe has not reported.
 * - `aigateway` (OpenVINO, InferenceService): clients call the shared Envoy AI Gateway at `/v1`; its
 *   AIGatewayRoute picks the model by the `model` field (header `x-ai-eg-model`) and rewrites `/v1`
 *   to OVMS's `/v3` (AIServiceBackend `schema.prefix: /v3`). The InferenceService's own
 *   `status.url` / `status.address.url` reach the predictor directly, bypassing the gateway, so
 *   they answer the engine's own path (plumbing `api_prefix`: OVMS's `/v3`) and are used only when
 *   no gateway base URL is configured.
 */
export const ROUTING_ENDPOINTS: Readonly<
  Record<
    string,
    {
      order: readonly EndpointSource[];
      paths: Partial<Record<EndpointSource, string>>;
    }
  >
> = {
  epp: {
    order: ['status-url', 'status-addresses', 'gateway'],
    paths: { 'status-url': '/v1', 'status-addresses': '/v1', gateway: '/v1' },
  },
  aigateway: {
    order: ['gateway', 'status-url', 'status-addresses'],
    paths: {
      gateway: '/v1',
      'status-url': 'api_prefix',
      'status-addresses': 'api_prefix',
    },
  },
};

/** Routing of objects without the annotation (rendered before it existed): the vLLM order. */
const DEFAULT_ROUTING = 'epp';

type Obj = Record<string, any>;

const isUrl = (value: unknown): value is string =>
  typeof value === 'string' && /^https?:\/\/[^\s]+$/.test(value);

const join = (base: string, path: string) =>
  `${base.replace(/\/+$/, '')}${path}`;

/**
 * The URLs KServe reports in a live object's status. Sources: KServe's CRDs
 * (test-assets/crds/kserve): InferenceService v1beta1 `status.url` and `status.address.url`
 * (knative duck `Addressable`); LLMInferenceService v1alpha2 `status.url`, `status.address.url`
 * and `status.addresses[].url` (duck `AddressStatus`).
 */
function reported(live: Obj, source: EndpointSource): string | undefined {
  const status: Obj = live?.status ?? {};
  if (source === 'status-url')
    return isUrl(status.url) ? status.url : undefined;
  if (source === 'status-addresses') {
    const addresses: Obj[] = [
      status.address,
      ...(Array.isArray(status.addresses) ? status.addresses : []),
    ];
    return addresses.map(a => a?.url).find(isUrl);
  }
  return undefined;
}

const SAYS: Record<EndpointSource, string> = {
  none: '',
  'status-url': 'the URL KServe reports for the model (status.url)',
  'status-addresses':
    'the address KServe reports for the model (status.address / status.addresses)',
  gateway:
    "the cluster's gateway (modelManager.kubernetes.clusters.<cluster>.gatewayBaseUrl)",
};

/**
 * The endpoint clients use for a model on one cluster and namespace. Pure. Rules:
 * - no live object (never deployed there, or deleted): none, "not deployed yet";
 * - otherwise the first source of the routing's order (see {@link ROUTING_ENDPOINTS}) that has a
 *   URL: the object's `status.url`, its `status.address(es)`, the cluster's configured gateway base
 *   URL; each with the path clients use for that source;
 * - none of them: none, saying KServe has not reported a URL and naming the config key to set.
 */
export function selectEndpoint(options: {
  /** The model's live InferenceService / LLMInferenceService; undefined when it is not there. */
  live?: Obj;
  /** `modelManager.kubernetes.clusters.<cluster>.gatewayBaseUrl`, when set. */
  gatewayBaseUrl?: string;
  /** The cluster, for messages. */
  cluster?: string;
  /** The engine's own API path (plumbing `api_prefix`, e.g. `/v3` for OVMS); default `/v1`. */
  apiPrefix?: string;
  /** The engine's name (its profile's `engine`), for messages. */
  engine?: string;
}): ModelEndpoint {
  const { live, gatewayBaseUrl } = options;
  const cluster = options.cluster ?? '<cluster>';
  if (!live) {
    return {
      source: 'none',
      message:
        'Not deployed yet: deploy the model, and its endpoint shows here.',
    };
  }
  const routing = String(
    live?.metadata?.annotations?.[ROUTING_ANNOTATION] ?? DEFAULT_ROUTING,
  );
  const rule = ROUTING_ENDPOINTS[routing] ?? ROUTING_ENDPOINTS[DEFAULT_ROUTING];
  for (const source of rule.order) {
    const url =
      source === 'gateway'
        ? isUrl(gatewayBaseUrl)
          ? gatewayBaseUrl
          : undefined
        : reported(live, source);
    if (!url) continue;
    const which = rule.paths[source] ?? '/v1';
    const path = which === 'api_prefix' ? options.apiPrefix ?? '/v1' : which;
    const direct =
      routing === 'aigateway' && source !== 'gateway'
        ? ` It reaches ${
            options.engine ?? 'the engine'
          } directly (its ${path} API), not through the AI gateway: set modelManager.kubernetes.clusters.${cluster}.gatewayBaseUrl for the /v1 endpoint.`
        : '';
    return {
      source,
      baseUrl: join(url, path),
      message: `From ${SAYS[source].replace('<cluster>', cluster)}.${direct}`,
      ...(direct ? { bypassesGateway: true } : {}),
    };
  }
  return {
    source: 'none',
    message: `Deployed, but no endpoint yet: KServe has not reported a URL, and no gateway base URL is configured for cluster ${cluster} (modelManager.kubernetes.clusters.${cluster}.gatewayBaseUrl).`,
  };
}
