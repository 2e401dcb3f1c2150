import { mockCredentials } from '@backstage/backend-test-utils';
import {
  modelManagerContract,
  type RouteName,
} from '@model-manager/plugin-model-manager-common';
import request from 'supertest';
import { useModelManager } from '../__testUtils__/testBackend';

const ALICE = mockCredentials.user.header('user:default/alice');
const VLLM = 'qwen2-5-7b-instruct';
const OV = 'phi-3-5-mini-instruct-int4-ov';
const TARGET = { cluster: 'local', namespace: 'models' };

type Api = ReturnType<typeof request>;

/** One request of a route, sent in order (later cases read what earlier ones deployed). */
type Case = {
  route: RouteName;
  name: string;
  send: (api: Api) => request.Test;
};

const get =
  (path: string, query: Record<string, unknown> = {}) =>
  (api: Api) =>
    api.get(`/api/model-manager${path}`).query(query);
const post = (path: string, body: Record<string, unknown>) => (api: Api) =>
  api.post(`/api/model-manager${path}`).send(body);

/**
 * Every route of the contract, called on the real backend against the Kubernetes API test double:
 * deploys first (a vLLM model twice, the second with a server version, and an OpenVINO model with
 * its weights download Job), then the routes that read them, the rollout, a rollback and an undeploy.
 */
const CASES: Case[] = [
  { route: 'health', name: 'health', send: get('/health') },
  { route: 'catalogStatus', name: 'the catalog loaded', send: get('/status') },
  { route: 'listModels', name: 'every model', send: get('/models') },
  {
    route: 'listModels',
    name: 'a filtered page',
    send: get('/models', { runtime: 'vllm', sort: '-name', limit: 2 }),
  },
  { route: 'getModel', name: 'a vLLM model', send: get(`/models/${VLLM}`) },
  { route: 'listRuntimes', name: 'the runtimes', send: get('/runtimes') },
  { route: 'getRuntime', name: 'vllm', send: get('/runtimes/vllm') },
  { route: 'getRuntime', name: 'openvino', send: get('/runtimes/openvino') },
  { route: 'listClusters', name: 'the clusters', send: get('/clusters') },
  {
    route: 'resolve',
    name: 'with overrides, a removed variable and a Secret',
    send: get(`/models/${VLLM}/resolved`, {
      serverVersion: '0.19.1',
      env: ['VLLM_LOGGING_LEVEL=DEBUG'],
      envSecret: ['HF_TOKEN=hf-token/token'],
      arg: ['--max-model-len=4096'],
    }),
  },
  {
    route: 'resolve',
    name: 'an OpenVINO model',
    send: get(`/models/${OV}/resolved`),
  },
  {
    route: 'render',
    name: 'an OpenVINO model (shared objects too)',
    send: post(`/models/${OV}/render`, { namespace: 'models' }),
  },
  {
    route: 'render',
    name: 'the GitOps render for a cluster',
    send: post(`/models/${VLLM}/render`, TARGET),
  },
  {
    route: 'preflight',
    name: 'before the first deploy',
    send: get(`/models/${VLLM}/preflight`, TARGET),
  },
  {
    route: 'pullRequestReadiness',
    name: 'no credentials for the host',
    send: get('/gitops/pull-request-readiness', {
      repoUrl: 'github.com?owner=acme&repo=gitops',
    }),
  },
  {
    route: 'deploy',
    name: 'a dry run (objects with changes)',
    send: post(`/models/${VLLM}/deploy`, { ...TARGET, dryRun: true }),
  },
  {
    route: 'deploy',
    name: 'a vLLM model',
    send: post(`/models/${VLLM}/deploy`, TARGET),
  },
  {
    route: 'deploy',
    name: 'the vLLM model again, pinned to a version with env and args',
    send: post(`/models/${VLLM}/deploy`, {
      ...TARGET,
      serverVersion: '0.19.1',
      env: { VLLM_LOGGING_LEVEL: 'DEBUG', VLLM_USE_V1: null },
      args: ['--max-model-len=4096'],
    }),
  },
  {
    route: 'deploy',
    name: 'an OpenVINO model with its download Job',
    send: post(`/models/${OV}/deploy`, TARGET),
  },
  {
    route: 'diff',
    name: 'against the live objects',
    send: get(`/models/${VLLM}/diff`, TARGET),
  },
  {
    route: 'status',
    name: 'a vLLM model, diagnosed',
    send: get(`/models/${VLLM}/status`, { diagnose: 'true' }),
  },
  {
    route: 'status',
    name: 'an OpenVINO model with its download',
    send: get(`/models/${OV}/status`),
  },
  { route: 'fleet', name: 'every target', send: get('/fleet') },
  {
    route: 'modelFleet',
    name: "one model's targets",
    send: get(`/models/${VLLM}/fleet`, { state: 'NotReady' }),
  },
  {
    route: 'rolloutPlan',
    name: 'a held target stays',
    send: get('/rollouts/plan', { runtime: 'vllm', version: '0.24.0' }),
  },
  {
    route: 'rolloutPlan',
    name: 'held targets move, with preflight',
    send: get('/rollouts/plan', {
      runtime: 'vllm',
      version: '0.24.0',
      includeHeld: 'true',
    }),
  },
  {
    route: 'rolloutApply',
    name: 'a batch with a failing target',
    send: post('/rollouts/apply', {
      runtime: 'vllm',
      version: '0.24.0',
      rolloutId: 'contract-1',
      targets: [
        { model: VLLM, ...TARGET, overrides: {} },
        { model: OV, ...TARGET, overrides: {} },
      ],
    }),
  },
  {
    route: 'history',
    name: 'with changes from the previous revision',
    send: get(`/models/${VLLM}/deployments`),
  },
  {
    route: 'revisionDiff',
    name: 'the second revision',
    send: get(`/models/${VLLM}/deployments/2/diff`),
  },
  {
    route: 'rollback',
    name: 'to the first revision',
    send: post(`/models/${VLLM}/rollback`, { revision: 1 }),
  },
  {
    route: 'undeploy',
    name: 'the OpenVINO model',
    send: api =>
      api.delete(`/api/model-manager/models/${OV}/deployment`).query(TARGET),
  },
  { route: 'openApi', name: 'the document', send: get('/openapi.json') },
];

describe('every answer of the backend matches its schema in the contract', () => {
  const ctx = useModelManager({
    modelManagerConfig: {
      kubernetes: {
        retryBaseDelayMs: 1,
        requestTimeoutMs: 5000,
        clusters: {
          local: { gatewayBaseUrl: 'https://ai-gateway.example.com/' },
        },
      },
    },
  });

  it('has a case for every route of the contract', () => {
    const tested = new Set(CASES.map(c => c.route));
    expect(
      Object.entries(modelManagerContract)
        // A stream of Server-Sent Events answers no JSON: its events' data is checked against
        // the contract where the stream is read (fleet/watch/fleetWatch.test.ts).
        .filter(([, route]) => !('events' in route && route.events))
        .map(([r]) => r)
        .filter(r => !tested.has(r as RouteName)),
    ).toEqual([]);
  });

  it.each(CASES.map(c => [`${c.route}: ${c.name}`, c] as const))(
    '%s',
    async (_, { route, send }) => {
      const res = await send(request(ctx.server)).set('Authorization', ALICE);
      expect(res.status).toBe(200);
      const parsed = modelManagerContract[route].answer.safeParse(res.body);
      if (!parsed.success)
        throw new Error(
          `the answer of ${route} does not match its schema:\n${parsed.error.issues
            .map(i => `${i.path.join('.')}: ${i.message}`)
            .join('\n')}`,
        );
      // The schemas drop fields they do not declare (Kubernetes manifests pass through): what
      // is left is the whole answer, or the backend sends a field the contract does not name.
      expect(parsed.data).toEqual(res.body);
    },
  );
});
