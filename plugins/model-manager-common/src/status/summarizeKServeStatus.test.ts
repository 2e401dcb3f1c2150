import { buildCatalog } from '../catalog/buildCatalog';
import { fixtureSources } from '../testUtils/catalogFixtures';
import { statusReadingOf } from './liveServer';
import { summarizeKServeStatus } from './summarizeKServeStatus';

// How each engine's profile says to read status (runtimes/<name>/profile.yaml `status:`).
const catalog = buildCatalog(fixtureSources());
const readingFor = (kind: string) =>
  statusReadingOf(
    catalog,
    kind === 'LLMInferenceService' ? 'vllm' : 'openvino',
  );

const cond = (
  type: string,
  status: string,
  reason?: string,
  message?: string,
) => ({ type, status, reason, message });

describe('summarizeKServeStatus', () => {
  it('without a reading (a runtime no longer in the catalog) it still says Ready is not True', () => {
    const s = summarizeKServeStatus(
      {
        kind: 'InferenceService',
        status: {
          conditions: [
            cond('Ready', 'False', 'Oops'),
            cond('PredictorReady', 'False', 'ContainerCreating'),
          ],
        },
      },
      undefined,
    );
    expect(s.problems).toEqual(['Ready is False (Oops).']);
  });

  const rows: Array<{
    rule: string;
    object: any;
    ready: boolean | undefined;
    problems: RegExp[];
    url?: string;
  }> = [
    {
      rule: 'an LLMInferenceService that is Ready has no problems and shows its URL',
      object: {
        kind: 'LLMInferenceService',
        metadata: { name: 'q' },
        status: {
          url: 'http://q.models',
          conditions: [
            cond('Ready', 'True'),
            cond('WorkloadsReady', 'True'),
            cond('RouterReady', 'True'),
          ],
        },
      },
      ready: true,
      problems: [],
      url: 'http://q.models',
    },
    {
      rule: 'WorkloadsReady False explains the vLLM pods',
      object: {
        kind: 'LLMInferenceService',
        metadata: { name: 'q' },
        status: {
          conditions: [
            cond('Ready', 'False', 'WorkloadsNotReady'),
            cond(
              'WorkloadsReady',
              'False',
              'MinimumReplicasUnavailable',
              'Deployment does not have minimum availability.',
            ),
            cond('RouterReady', 'True'),
          ],
        },
      },
      ready: false,
      problems: [
        /^WorkloadsReady is False: the vLLM pods are not ready .*\(MinimumReplicasUnavailable: Deployment does not have minimum availability\.\)\.$/,
      ],
    },
    {
      rule: 'RouterReady False explains the route',
      object: {
        kind: 'LLMInferenceService',
        metadata: { name: 'q' },
        status: {
          conditions: [
            cond('Ready', 'False'),
            cond('WorkloadsReady', 'True'),
            cond('RouterReady', 'False', 'GatewayNotFound'),
          ],
        },
      },
      ready: false,
      problems: [/^RouterReady is False: the router .*\(GatewayNotFound\)\.$/],
    },
    {
      rule: 'an InferenceService failing to load says why from modelStatus.lastFailureInfo',
      object: {
        kind: 'InferenceService',
        metadata: { name: 'e' },
        status: {
          conditions: [
            cond('Ready', 'False'),
            cond('PredictorReady', 'False', 'ContainerCreating'),
          ],
          modelStatus: {
            lastFailureInfo: {
              reason: 'ModelLoadFailed',
              message: 'unsupported for OpenVINO models',
            },
          },
        },
      },
      ready: false,
      problems: [
        /^PredictorReady is False: the OpenVINO predictor pods are not ready \(ContainerCreating\)\.$/,
        /^The model failed to load: ModelLoadFailed: unsupported for OpenVINO models\.$/,
      ],
    },
    {
      rule: 'no status yet means KServe has not reconciled it',
      object: { kind: 'InferenceService', metadata: { name: 'e' } },
      ready: undefined,
      problems: [/has not reported a Ready condition/],
    },
  ];
  it.each(rows)('$rule', ({ object, ready, problems, url }) => {
    const s = summarizeKServeStatus(object, readingFor(object.kind));
    expect(s.ready).toBe(ready);
    expect(s.problems).toHaveLength(problems.length);
    problems.forEach((p, i) => expect(s.problems[i]).toMatch(p));
    if (url) expect(s.url).toBe(url);
  });
});

describe("the routing's own objects, as their controllers judge them (profile status.refusals)", () => {
  const isvcReady = {
    kind: 'InferenceService',
    metadata: { name: 'm', namespace: 'ns' },
    status: { conditions: [cond('Ready', 'True')] },
  };
  const route = (kind: string, conditions?: unknown[]) => ({
    kind,
    metadata: { name: 'm', namespace: 'ns' },
    ...(conditions ? { status: { conditions } } : {}),
  });
  const NOT_ENABLED =
    'The Backend was not accepted since Backend is not enabled in Envoy Gateway Config';
  // Gateway API v1 RouteStatus: one entry per parent, in the Gateway controller's words.
  const parent = (ns: string, name: string, conditions: unknown[]) => ({
    parentRef: {
      group: 'gateway.networking.k8s.io',
      kind: 'Gateway',
      namespace: ns,
      name,
      sectionName: 'http',
    },
    controllerName: 'gateway.envoyproxy.io/gatewayclass-controller',
    conditions,
  });
  const httpRoute = (parents: unknown[]) => ({
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name: 'm', namespace: 'ns' },
    status: { parents },
  });

  it.each([
    {
      rule: "Envoy Gateway's Backend Accepted False: not Ready, with the controller's words",
      routes: [
        route('Backend', [cond('Accepted', 'False', 'Invalid', NOT_ENABLED)]),
      ],
      problems: [
        `Clients cannot reach the model: Backend m was refused by its controller (Accepted False, Invalid: ${NOT_ENABLED}).`,
      ],
    },
    {
      rule: "Envoy AI Gateway's NotAccepted, which it writes with status False: not Ready",
      routes: [
        route('AIGatewayRoute', [
          cond(
            'NotAccepted',
            'False',
            'ReconciliationFailed',
            'no such backend',
          ),
        ]),
      ],
      problems: [
        'Clients cannot reach the model: AIGatewayRoute m was refused by its controller (NotAccepted, ReconciliationFailed: no such backend).',
      ],
    },
    {
      rule: 'accepted: Ready',
      routes: [
        route('Backend', [cond('Accepted', 'True', 'Accepted')]),
        route('AIServiceBackend', [cond('Accepted', 'True')]),
      ],
      problems: [],
    },
    {
      rule: 'not judged yet (no status): Ready, as KServe says',
      routes: [route('Backend'), route('AIGatewayRoute', [])],
      problems: [],
    },
    {
      rule: 'a kind the profile reads no verdict of: ignored',
      routes: [route('Service', [cond('Accepted', 'False')])],
      problems: [],
    },
    {
      rule: 'the HTTPRoute Envoy AI Gateway makes from the AIGatewayRoute, refused by its Gateway (per parent): not Ready, naming the Gateway and listener',
      routes: [
        route('AIGatewayRoute', [cond('Accepted', 'True')]),
        httpRoute([
          parent('default', 'envoy-ai-gateway-basic', [
            cond(
              'Accepted',
              'False',
              'NotAllowedByListeners',
              'No listeners included by this parent ref allowed this attachment.',
            ),
          ]),
        ]),
      ],
      problems: [
        'Clients cannot reach the model: HTTPRoute m (made by its controller from AIGatewayRoute m) was refused by Gateway default/envoy-ai-gateway-basic (listener http) (Accepted False, NotAllowedByListeners: No listeners included by this parent ref allowed this attachment.).',
      ],
    },
    {
      rule: 'its backends not resolved (ResolvedRefs False), the parent in the route namespace by default: not Ready',
      routes: [
        route('AIGatewayRoute'),
        httpRoute([
          {
            parentRef: { name: 'gw' },
            conditions: [
              cond('Accepted', 'True'),
              cond('ResolvedRefs', 'False', 'BackendNotFound', 'no Backend m'),
            ],
          },
        ]),
      ],
      problems: [
        'Clients cannot reach the model: HTTPRoute m (made by its controller from AIGatewayRoute m) was refused by Gateway ns/gw (ResolvedRefs False, BackendNotFound: no Backend m).',
      ],
    },
    {
      rule: "an HTTPRoute no AIGatewayRoute of the model made (another controller's): ignored",
      routes: [
        httpRoute([parent('default', 'gw', [cond('Accepted', 'False')])]),
      ],
      problems: [],
    },
    {
      rule: 'accepted by every parent, or a refusal in status.conditions rather than per parent: Ready',
      routes: [
        route('AIGatewayRoute'),
        {
          ...httpRoute([
            parent('default', 'a', [cond('Accepted', 'True')]),
            parent('default', 'b', [cond('ResolvedRefs', 'True')]),
          ]),
          status: {
            conditions: [cond('Accepted', 'False')],
            parents: [parent('default', 'a', [cond('Accepted', 'True')])],
          },
        },
      ],
      problems: [],
    },
  ])('$rule', ({ routes, problems }) => {
    const s = summarizeKServeStatus(
      isvcReady,
      readingFor('InferenceService'),
      routes,
    );
    expect(s.problems).toEqual(problems);
    expect(s.ready).toBe(problems.length === 0);
  });

  it("both engines' profiles read the AI gateway's verdicts", () => {
    for (const kind of ['InferenceService', 'LLMInferenceService'])
      expect(
        readingFor(kind)?.refusals?.map(r =>
          [r.kind, r.madeFrom, r.perParent && r.condition]
            .filter(Boolean)
            .join(' '),
        ),
      ).toEqual([
        'Backend',
        'AIServiceBackend',
        'AIGatewayRoute',
        'HTTPRoute AIGatewayRoute Accepted',
        'HTTPRoute AIGatewayRoute ResolvedRefs',
      ]);
  });

  it('a model KServe does not call Ready keeps its own problems first', () => {
    const s = summarizeKServeStatus(
      {
        ...isvcReady,
        status: {
          conditions: [
            cond('Ready', 'False'),
            cond('PredictorReady', 'False', 'ContainerCreating'),
          ],
        },
      },
      readingFor('InferenceService'),
      [route('Backend', [cond('Accepted', 'False', 'Invalid', 'x')])],
    );
    expect(s.ready).toBe(false);
    expect(s.problems).toEqual([
      'PredictorReady is False: the OpenVINO predictor pods are not ready (ContainerCreating).',
      'Clients cannot reach the model: Backend m was refused by its controller (Accepted False, Invalid: x).',
    ]);
  });
});
