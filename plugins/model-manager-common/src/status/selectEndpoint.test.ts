import { selectEndpoint, type ModelEndpoint } from './selectEndpoint';

const object = (
  routing: 'epp' | 'aigateway',
  status: Record<string, unknown> = {},
) => ({
  kind: routing === 'epp' ? 'LLMInferenceService' : 'InferenceService',
  metadata: {
    name: 'm',
    namespace: 'models',
    annotations: { 'model-manager.io/routing': routing },
  },
  status,
});
const GATEWAY = 'https://ai.example.com';

interface Rule {
  rule: string;
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
];

describe('selectEndpoint', () => {
  it.each(rules)(
    '$rule',
    ({ live, gatewayBaseUrl, apiPrefix, expected, says, through }) => {
      const endpoint = selectEndpoint({
        live,
        gatewayBaseUrl,
        apiPrefix,
        cluster: 'local',
        engine: 'OpenVINO Model Server',
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
