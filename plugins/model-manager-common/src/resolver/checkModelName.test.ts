import { buildCatalog } from '../catalog/buildCatalog';
import { MODEL_NAME_OBJECTS } from '../constants';
import { CatalogError } from '../source/problems';
import { modelsYaml, fixtureSources } from '../testUtils/catalogFixtures';
import { checkModelName } from './checkModelName';

const catalogWith = (name: string, runtime: 'vllm' | 'openvino') =>
  modelsYaml(`
  ${name}:
    model_id: org/model
    category: ${runtime === 'vllm' ? 'llm' : 'embed'}
    server:
      runtime: ${runtime}
`);

const problems = (text: string): string[] => {
  try {
    buildCatalog(fixtureSources({ models: text }));
    return [];
  } catch (e) {
    if (!(e instanceof CatalogError)) throw e;
    return e.problems.map(
      p => `${p.file}:${p.line}:${p.col}: ${p.path}: ${p.message}`,
    );
  }
};

interface Rule {
  rule: string;
  name: string;
  runtime: 'vllm' | 'openvino';
  problem: RegExp | null;
}

// KServe's webhook: IsvcNameFmt = "[a-z]([-a-z0-9]*[a-z0-9])?" (https://github.com/kserve/kserve
// pkg/apis/serving/v1beta1/inference_service_validation.go, validateInferenceServiceName).
// KServe names the predictor Service `<name>-predictor` (pkg/constants/constants.go,
// PredictorServiceName); Service names and label values are at most 63 characters.
const rules: Rule[] = [
  {
    rule: 'a model name must start with a letter (KServe IsvcNameFmt)',
    name: '3b-model',
    runtime: 'vllm',
    problem:
      /models\.yaml:2:3: models\.3b-model: model names name Kubernetes objects, so they must match KServe's InferenceService name pattern \^\[a-z\]\(\[-a-z0-9\]\*\[a-z0-9\]\)\?\$.*e\.g\. rename 3b-model to model-3b/,
  },
  {
    rule: 'a model name must not end with -',
    name: 'model-',
    runtime: 'vllm',
    problem: /models\.model-: model names name Kubernetes objects/,
  },
  {
    rule: 'a vLLM model name may use all 63 characters (KServe derives child names with kmeta.ChildName, which shortens)',
    name: `m${'x'.repeat(62)}`,
    runtime: 'vllm',
    problem: null,
  },
  {
    rule: 'a model name longer than 63 characters is refused',
    name: `m${'x'.repeat(63)}`,
    runtime: 'vllm',
    problem: /model names name Kubernetes objects/,
  },
  {
    rule: 'an OpenVINO model name must leave room for <name>-predictor (KServe PredictorServiceName) within 63',
    name: `m${'x'.repeat(53)}`,
    runtime: 'openvino',
    problem: new RegExp(
      `models\\.yaml:2:3: models\\.m${'x'.repeat(
        53,
      )}: model name 'm${'x'.repeat(
        53,
      )}' is too long: it names KServe's predictor Service and Deployment 'm${'x'.repeat(
        53,
      )}-predictor' \\(64 characters\\), and Kubernetes names and label values are at most 63\\. Shorten the model name to at most 53 characters`,
    ),
  },
  {
    rule: 'an OpenVINO model name of 53 characters fits <name>-predictor and <name>-download',
    name: `m${'x'.repeat(52)}`,
    runtime: 'openvino',
    problem: null,
  },
];

describe('model names KServe and Kubernetes accept, for every object the name becomes', () => {
  it.each(rules)('$rule', ({ name, runtime, problem }) => {
    const found = problems(catalogWith(name, runtime));
    if (problem === null) expect(found).toEqual([]);
    else expect(found.join('\n')).toMatch(problem);
  });

  // routing aigateway: the Backend's hostname is `<name>-kserve-workload-svc`, the Service KServe
  // puts in front of the pods (plumbing workload_service_suffix). KServe shortens that name with a
  // hash past 63 characters (kmeta.ChildName), so a longer one names a Service that does not exist.
  it('on routing aigateway, a vLLM model name must leave room for <name>-kserve-workload-svc, which the Backend names', () => {
    const onGateway = (name: string) =>
      catalogWith(name, 'vllm').replace(
        /\n {2}vllm:\n/,
        '\n  vllm:\n    routing: aigateway\n',
      );
    const long = `m${'x'.repeat(43)}`;
    expect(problems(onGateway(long)).join('\n')).toMatch(
      new RegExp(
        `model name '${long}' is too long: it names the Service KServe puts in front of its pods, which the aigateway route's Backend names '${long}-kserve-workload-svc' \\(64 characters\\).*Shorten the model name to at most 43 characters`,
      ),
    );
    expect(problems(onGateway(`m${'x'.repeat(42)}`))).toEqual([]);
    // On epp nothing of ours names that Service: KServe's own children are shortened by KServe.
    expect(problems(catalogWith(long, 'vllm'))).toEqual([]);
  });

  it('the derived names are data: an added object is checked with no code change', () => {
    const { runtimes } = buildCatalog(fixtureSources());
    expect(checkModelName('a'.repeat(54), runtimes.openvino.profile)).toEqual([
      expect.stringContaining(
        "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-predictor' (64 characters)",
      ),
    ]);
    const objects = MODEL_NAME_OBJECTS as Array<
      (typeof MODEL_NAME_OBJECTS)[number]
    >;
    objects.push({
      object: 'a gateway HTTPRoute',
      suffix: '-route-abcdefghij',
    });
    try {
      expect(checkModelName('a'.repeat(50), runtimes.vllm.profile)).toEqual([
        expect.stringContaining('a gateway HTTPRoute'),
      ]);
    } finally {
      objects.pop();
    }
  });
});
