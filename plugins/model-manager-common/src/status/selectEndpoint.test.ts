import { buildCatalog } from '../catalog/buildCatalog';
import { fixtureSources } from '../testUtils/catalogFixtures';
import {
  selectEndpoint,
  type EndpointProfile,
  type ModelEndpoint,
} from './selectEndpoint';

// The endpoint rules are the engine profiles' (`endpoints:`): vLLM's for epp, OpenVINO's for
// aigateway, read from the test catalog.
const catalog = buildCatalog(fixtureSources());
const PROFILES: Record<string, EndpointProfile> = {
  epp: catalog.runtimes.vllm.profile,
  aigateway: catalog.runtimes.openvino.profile,
};

const object = (
  routing: string | undefined,
  status: Record<string, unknown> = {},
) => ({
  kind: routing === 'epp' ? 'LLMInferenceService' : 'InferenceService',
  metadata: {
    name: 'm',
    namespace: 'models',
    annotations:
      routing === undefined ? {} : { 'model-manager.io/routing': routing },
  },
  status,
});
const GATEWAY = 'https://ai.example.com';

interface Rule {
  rule: string;
  /** The model's engine profile (default: the one of the object's routing, see PROFILES). */
  profile?: EndpointProfile | null;
  /** The runtime's routing (for an object without the annotation). */
  routing?: string;
  apiPrefix?: string;
  live?: Record<string, unknown>;
  gatewayBaseUrl?: string;
  expected: Partial<ModelEndpoint>;
  says?: RegExp;
  /** The URL goes through the AI gateway or is not the direct one: no `bypassesGateway`. */
  through?: boolean;
}

const rules: Rule[] = [
  {
    rule: 'not deployed (no live object): no endpoint, even with a gateway configured',
    gatewayBaseUrl: GATEWAY,
    expected: { source: 'none' },
    says: /^Not deployed yet/,
  },
  {
    rule: 'vLLM: the status URL KServe reports wins over the configured gateway',
    live: object('epp', {
      url: 'http://gw.models.svc/models/m',
      address: { url: 'http://internal' },
    }),
    gatewayBaseUrl: GATEWAY,
    expected: {
      source: 'status-url',
      baseUrl: 'http://gw.models.svc/models/m/v1',
    },
    says: /status\.url/,
  },
  {
    rule: 'vLLM: without status.url, the first of status.address / status.addresses',
    live: object('epp', {
      addresses: [
        { name: 'gateway-internal', url: 'http://m.models.svc.cluster.local' },
      ],
    }),
    gatewayBaseUrl: GATEWAY,
    expected: {
      source: 'status-addresses',
      baseUrl: 'http://m.models.svc.cluster.local/v1',
    },
  },
  {
    rule: 'vLLM: KServe has not reported a URL yet: the cluster gateway from config (fallback)',
    live: object('epp', { conditions: [] }),
    gatewayBaseUrl: `${GATEWAY}/`,
    expected: { source: 'gateway', baseUrl: `${GATEWAY}/v1` },
    says: /gatewayBaseUrl/,
  },
  {
    rule: 'deployed, no URL reported and no gateway configured: no endpoint, naming the config key',
    live: object('epp'),
    expected: { source: 'none' },
    says: /^Deployed, but no endpoint yet.*modelManager\.kubernetes\.clusters\.local\.gatewayBaseUrl/,
  },
  {
    rule: 'OpenVINO: clients use /v1 on the AI gateway (it rewrites to /v3), even when KServe reports the predictor URL',
    live: object('aigateway', { url: 'http://m-models.example.com' }),
    gatewayBaseUrl: GATEWAY,
    expected: { source: 'gateway', baseUrl: `${GATEWAY}/v1` },
    through: true,
  },
  {
    rule: "OpenVINO without a configured gateway: the predictor's status URL, with OVMS's own /v3",
    live: object('aigateway', {
      url: 'http://m-models.example.com',
      address: { url: 'http://m-predictor.models.svc.cluster.local' },
    }),
    apiPrefix: '/v3',
    expected: {
      source: 'status-url',
      baseUrl: 'http://m-models.example.com/v3',
      bypassesGateway: true,
    },
    says: /reaches OpenVINO Model Server directly.*\/v3.*not through the AI gateway/,
  },
  {
    rule: 'OpenVINO without a gateway or status.url: status.address, with /v3',
    live: object('aigateway', {
      address: { url: 'http://m-predictor.models.svc.cluster.local' },
    }),
    apiPrefix: '/v3',
    expected: {
      source: 'status-addresses',
      baseUrl: 'http://m-predictor.models.svc.cluster.local/v3',
      bypassesGateway: true,
    },
  },
  {
    rule: 'OpenVINO deployed, nothing reported, no gateway: no endpoint',
    live: object('aigateway', {}),
    expected: { source: 'none' },
    says: /^Deployed, but no endpoint yet/,
  },
  {
    rule: 'something that is not an http(s) URL is not an endpoint',
    live: object('epp', { url: '<gateway>' }),
    gatewayBaseUrl: 'not a url',
    expected: { source: 'none' },
  },
  {
    rule: "a routing the profile declares no rule for: no endpoint, naming the profile file and field (never another routing's rules)",
    live: object('istio', { url: 'http://m.models.example.com' }),
    profile: PROFILES.epp,
    gatewayBaseUrl: GATEWAY,
    expected: { source: 'none' },
    says: /^Deployed with routing 'istio', but runtimes\/vllm\/profile\.yaml declares no endpoint rule for it \(endpoints\.istio\); add one there/,
  },
  {
    rule: "an object without the routing annotation: the runtime's routing decides",
    live: object(undefined, { url: 'http://m-models.example.com' }),
    profile: PROFILES.aigateway,
    routing: 'aigateway',
    gatewayBaseUrl: GATEWAY,
    expected: { source: 'gateway', baseUrl: `${GATEWAY}/v1` },
  },
  {
    rule: 'no engine profile (the model left the catalog): no endpoint, saying why',
    live: object('epp', { url: 'http://m.models.example.com' }),
    profile: null,
    expected: { source: 'none' },
    says: /engine profile is not in the catalog/,
  },
  {
    rule: "a profile's path may carry the model's name (a per-model path prefix on a shared gateway)",
    live: object('httproute', { url: 'http://m-predictor.models.svc' }),
    profile: {
      file: 'runtimes/x/profile.yaml',
      engine: 'X',
      endpoints: {
        httproute: [
          { from: 'gateway', path: '/models/${model.name}/v1' },
          {
            from: 'status-url',
            path: '${api_prefix}',
            bypasses: 'the shared gateway',
          },
        ],
      },
    },
    gatewayBaseUrl: GATEWAY,
    expected: { source: 'gateway', baseUrl: `${GATEWAY}/models/m/v1` },
    through: true,
  },
];

describe('selectEndpoint', () => {
  it.each(rules)(
    '$rule',
    ({
      live,
      gatewayBaseUrl,
      apiPrefix,
      expected,
      says,
      through,
      profile,
      routing,
    }) => {
      const annotated = (live as any)?.metadata?.annotations?.[
        'model-manager.io/routing'
      ];
      const endpoint = selectEndpoint({
        live,
        gatewayBaseUrl,
        apiPrefix,
        cluster: 'local',
        engine: 'OpenVINO Model Server',
        profile:
          profile === null
            ? undefined
            : profile ?? PROFILES[annotated ?? routing],
        routing,
      });
      expect(endpoint).toMatchObject(expected);
      if (expected.source === 'none') expect(endpoint.baseUrl).toBeUndefined();
      if (says) expect(endpoint.message).toMatch(says);
      expect(endpoint.message).not.toMatch(/<gateway>/);
      if (through || !expected.bypassesGateway)
        expect(endpoint.bypassesGateway).toBeUndefined();
    },
  );
});
