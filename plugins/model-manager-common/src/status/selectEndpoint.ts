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
 * One source of a model's endpoint, as its engine profile declares it (`endpoints.<routing>`):
 * where the URL comes from, the path clients put after it, and, when that URL reaches the engine
 * directly, what it bypasses.
 */
export interface EndpointRule {
  from: Exclude<EndpointSource, 'none'>;
  /** A URL path; `${api_prefix}` is the engine's own API path (plumbing api_prefix, /v1 when unset), `${model.name}` the model's name. */
  path: string;
  /** The URL reaches the engine directly, not through this (e.g. `the AI gateway`). */
  bypasses?: string;
}

/** What selectEndpoint reads from the model's engine profile. */
export interface EndpointProfile {
  file: string;
  engine: string;
  /** The endpoint rules per routing value (profile `endpoints:`). */
  endpoints: Readonly<Record<string, readonly EndpointRule[]>>;
}

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
 * - the routing is the live object's `model-manager.io/routing` annotation (else the runtime's
 *   routing); its rules are the engine profile's `endpoints.<routing>`. A routing the profile
 *   declares no rules for: none, naming the profile file and field to add (never another
 *   routing's rules);
 * - otherwise the first rule whose source has a URL: the object's `status.url`, its
 *   `status.address(es)`, the cluster's configured gateway base URL; with the rule's path;
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
  /** The model's engine profile: its endpoint rules per routing. */
  profile?: EndpointProfile;
  /** The runtime's plumbing routing, for an object without the routing annotation. */
  routing?: string;
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
  const annotated = live?.metadata?.annotations?.[ROUTING_ANNOTATION];
  const routing = typeof annotated === 'string' ? annotated : options.routing;
  const profile = options.profile;
  const rules =
    profile &&
    routing !== undefined &&
    Object.prototype.hasOwnProperty.call(profile.endpoints, routing)
      ? profile.endpoints[routing]
      : undefined;
  if (!rules) {
    return {
      source: 'none',
      message: !profile
        ? 'Deployed, but its engine profile is not in the catalog, so where clients call it is not known.'
        : routing === undefined
        ? `Deployed, but its object has no ${ROUTING_ANNOTATION} annotation and its runtime sets no plumbing routing, so ${profile.file} cannot say where clients call it. Set routing in the runtime's values.yaml and deploy again.`
        : `Deployed with routing '${routing}', but ${profile.file} declares no endpoint rule for it (endpoints.${routing}); add one there (the sources of the URL clients call, in order).`,
    };
  }
  const engine = options.engine ?? profile?.engine;
  for (const rule of rules) {
    const source = rule.from;
    const url =
      source === 'gateway'
        ? isUrl(gatewayBaseUrl)
          ? gatewayBaseUrl
          : undefined
        : reported(live, source);
    if (!url) continue;
    const path = rule.path
      .replace('${api_prefix}', options.apiPrefix ?? '/v1')
      .replace('${model.name}', String(live.metadata?.name ?? ''));
    const viaGateway = rules.find(r => r.from === 'gateway');
    const direct = rule.bypasses
      ? ` It reaches ${
          engine ?? 'the engine'
        } directly (its ${path} API), not through ${
          rule.bypasses
        }: set modelManager.kubernetes.clusters.${cluster}.gatewayBaseUrl for the ${
          viaGateway?.path ?? '/v1'
        } endpoint.`
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
