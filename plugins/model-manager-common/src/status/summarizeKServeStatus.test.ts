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
