import fs from 'node:fs';
import path from 'node:path';
import { buildCatalog } from '../catalog/buildCatalog';
import { CatalogError } from '../source/problems';
import {
  modelsYaml,
  fixtureSources,
  FIXTURE_CATALOG_DIR,
} from '../testUtils/catalogFixtures';

const VLLM = fs.readFileSync(
  path.join(FIXTURE_CATALOG_DIR, 'runtimes/vllm/profile.yaml'),
  'utf8',
);
const OPENVINO = fs.readFileSync(
  path.join(FIXTURE_CATALOG_DIR, 'runtimes/openvino/profile.yaml'),
  'utf8',
);

/** Every problem of a catalog built from the repository with these changes, as `file:line:col: path: message`. */
function problems(changes: Parameters<typeof fixtureSources>[0]): string[] {
  try {
    buildCatalog(fixtureSources(changes));
  } catch (e) {
    if (!(e instanceof CatalogError)) throw e;
    return e.problems.map(
      p => `${p.file}:${p.line}:${p.col}: ${p.path}: ${p.message}`,
    );
  }
  return [];
}

/** The profile text with `from` replaced by `to` (which must be there). */
const edit = (text: string, from: string | RegExp, to: string) => {
  const out = text.replace(from, to);
  if (out === text) throw new Error(`test setup: ${from} not in the profile`);
  return out;
};

const MODELS = `
  chat:
    model_id: Qwen/Qwen2.5-7B-Instruct
    category: llm
    server:
      runtime: vllm
  ov-embed:
    model_id: BAAI/bge-small-en-v1.5
    category: embed
    server:
      runtime: openvino
`;

/** The test models.yaml with runtimes.vllm's versions: block replaced by `versions`. */
function withoutVllmVersions(versions: string): string {
  return edit(
    modelsYaml(MODELS),
    /^ {4}versions:\n( {6}.*\n| *#.*\n)+/m,
    versions,
  );
}

interface Rule {
  rule: string;
  changes: Parameters<typeof fixtureSources>[0];
  /** Every problem reported, in order (each a regexp on `file:line:col: path: message`). */
  expected: RegExp[];
}

const rules: Rule[] = [
  {
    rule: 'the repository profiles are complete and valid',
    changes: {},
    expected: [],
  },
  {
    rule: 'an incomplete profile (no engine) names the profile file and the missing key',
    changes: { profiles: { vllm: edit(VLLM, /^engine: vLLM\n/m, '') } },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: engine: is required \(the engine name shown in messages, e\.g\. vLLM\)$/,
    ],
  },
  {
    rule: 'an incomplete profile (no objects) says what objects holds',
    changes: {
      profiles: {
        vllm: edit(
          VLLM,
          /^objects:\n {2}- template: templates\/llm-inference-service\.yaml\n/m,
          '',
        ),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: objects: is required \(objects is required: the templates a model renders, in apply order/,
    ],
  },
  {
    rule: 'a profile naming a template that does not exist: file:line:col of the name, and the fix',
    changes: {
      profiles: {
        vllm: edit(
          VLLM,
          'templates/llm-inference-service.yaml',
          'templates/llm-inference-servic.yaml',
        ),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:9:15: objects\[0\]\.template: template templates\/llm-inference-servic\.yaml does not exist under runtimes\/; fix the path or add the file \(templates found: .*templates\/llm-inference-service\.yaml/,
    ],
  },
  {
    rule: 'a route template that does not exist is reported at its line',
    changes: {
      profiles: {
        openvino: edit(
          OPENVINO,
          '    - templates/ai-gateway-route.yaml',
          '    - templates/ai-gateway-routes.yaml',
        ),
      },
    },
    expected: [
      /^runtimes\/openvino\/profile\.yaml:\d+:7: routing\.aigateway\[2\]: template templates\/ai-gateway-routes\.yaml does not exist/,
    ],
  },
  {
    rule: 'an unknown profile key suggests the known one',
    changes: {
      profiles: {
        vllm: edit(VLLM, /^moe_only_flags:/m, 'moe_only_flag:'),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:1: moe_only_flag: unknown key 'moe_only_flag'; did you mean 'moe_only_flags'\?/,
    ],
  },
  {
    rule: 'a converting engine must pass ${weight_format} to its download, or weight_format would be ignored',
    changes: {
      profiles: {
        openvino: edit(
          OPENVINO,
          '    - --weight-format=${weight_format}\n',
          '',
        ),
      },
    },
    expected: [
      /^runtimes\/openvino\/profile\.yaml:\d+:\d+: weights\.download_args: weights: says the engine converts weights, but no download_args item passes \$\{weight_format\}/,
    ],
  },
  {
    rule: 'the last object is the model server and must be a template',
    changes: {
      profiles: {
        openvino: edit(
          OPENVINO,
          '  - template: templates/inference-service.yaml\n',
          '  - template: templates/inference-service.yaml\n  - serving_runtime: true\n',
        ),
      },
    },
    expected: [
      /^runtimes\/openvino\/profile\.yaml:\d+:\d+: objects\[4\]: the last object is the model server object .* it must be a template: entry$/,
    ],
  },
  {
    rule: 'an object needs exactly one of template and serving_runtime',
    changes: {
      profiles: {
        vllm: edit(
          VLLM,
          '  - template: templates/llm-inference-service.yaml\n',
          '  - apply: apply\n  - template: templates/llm-inference-service.yaml\n',
        ),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: objects\[0\]: each object needs exactly one of template: <path under runtimes\/> or serving_runtime: true$/,
    ],
  },
  {
    rule: 'a kind the profile does not render is refused at the kind value',
    changes: {
      values: {
        vllm: 'device: cpu\nkind: InferenceService\nrouting: epp\n',
      },
    },
    expected: [
      /^runtimes\/vllm\/values\.yaml:2:7: kind: kind is InferenceService, but runtime vllm's engine profile \(runtimes\/vllm\/profile\.yaml\) renders a LLMInferenceService as its model server object; set kind: LLMInferenceService, or remove kind$/,
    ],
  },
  {
    rule: 'a flat profile refuses versions:',
    changes: {
      profiles: { vllm: edit(VLLM, 'versioned: true', 'versioned: false') },
    },
    expected: [
      /^models\.yaml:\d+:\d+: runtimes\.vllm\.versions: runtime vllm is flat: its engine profile \(runtimes\/vllm\/profile\.yaml\) says versioned: false, so versions: does not apply; remove versions: and set the plumbing image$/,
    ],
  },
  {
    // The spec: vLLM is "a versioned runtime"; found by an independent reading of it, where a
    // vLLM entry without versions: rendered one unnamed image that no request could name.
    rule: 'a versioned profile refuses a runtime without versions:',
    changes: {
      models: withoutVllmVersions('').replace(
        '    default_version: "0.24.0"\n',
        '    image: "docker.io/vllm/vllm-openai-cpu:v0.24.0"\n',
      ),
    },
    expected: [
      /^models\.yaml:\d+:\d+: runtimes\.vllm: runtime vllm has no versions:, but its engine profile \(runtimes\/vllm\/profile\.yaml\) says versioned: true; add versions: with at least one version and its image \(e\.g\. versions: \{ "0\.24\.0": \{ image: \.\.\. \} \}\) and default_version$/,
    ],
  },
  {
    rule: 'a versioned profile refuses an empty versions:, without suggesting to remove it',
    changes: { models: withoutVllmVersions('    versions: {}\n') },
    expected: [
      /^models\.yaml:\d+:\d+: runtimes\.vllm\.versions: versions: is empty; add at least one version with its image \(runtime vllm's engine profile, runtimes\/vllm\/profile\.yaml, says versioned: true\)$/,
    ],
  },
  {
    rule: 'a routing the profile has no templates for is refused',
    changes: {
      profiles: {
        // Its route templates, endpoint rules, controller_tls, gateway_config, gateway_class and
        // status.refusals.
        vllm: edit(
          edit(
            edit(
              edit(
                edit(VLLM, /^ {2}aigateway:\n( {4}- .*\n){3}/m, ''),
                /^ {2}aigateway:\n( {4}- from: .*\n( {6}.*\n)*)+/m,
                '',
              ),
              /^controller_tls:\n( {2,}.*\n)+/m,
              '',
            ),
            /^gateway_config:\n( {2,}.*\n)+/m,
            '',
          ),
          /^gateway_class:\n( {2,}.*\n)+/m,
          '',
        ).replace(/^ {2}refusals:\n( {4,}.*\n)+/m, ''),
      },
      values: {
        vllm: 'device: cpu\nkind: LLMInferenceService\nrouting: aigateway\n',
      },
    },
    expected: [
      /^runtimes\/vllm\/values\.yaml:3:1: routing: routing 'aigateway' is not known; set routing to one of epp$/,
    ],
  },
  // Each per-routing section names only routings the profile has.
  ...(
    [
      ['routing_values', 'epp'],
      ['controller_gateway', 'epp'],
      ['controller_kinds', 'epp'],
      ['controller_tls', 'aigateway'],
      ['gateway_config', 'aigateway'],
      ['gateway_class', 'aigateway'],
    ] as const
  ).map(([section, routing]) => ({
    rule: `${section} for a routing the profile does not have is refused at its line`,
    changes: {
      profiles: {
        vllm: edit(
          VLLM,
          new RegExp(`^${section}:\\n {2}${routing}:\\n`, 'm'),
          `${section}:\n  istio:\n`,
        ),
      },
    },
    expected: [
      new RegExp(
        `^runtimes/vllm/profile\\.yaml:\\d+:3: ${section}\\.istio: ${section}\\.istio is for a routing this profile does not have \\(routing: epp, aigateway\\); add routing\\.istio or remove it$`,
      ),
    ],
  })),
  {
    rule: 'a routing_values name that a plumbing key or a built-in placeholder already has is refused',
    changes: {
      profiles: {
        vllm: edit(
          VLLM,
          /^routing_values:\n {2}epp:\n/m,
          'routing_values:\n  epp:\n    device: gpu\n    image: x\n',
        ),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:5: routing_values\.epp\.device: routing_values\.epp\.device names a plumbing key of this profile, which a template placeholder \$\{device\} already means; give it another name$/,
      /^runtimes\/vllm\/profile\.yaml:\d+:5: routing_values\.epp\.image: routing_values\.epp\.image names a built-in placeholder, which a template placeholder \$\{image\} already means; give it another name$/,
    ],
  },
  {
    rule: "a controller_kinds entry's api_version must be an apiVersion",
    changes: {
      profiles: {
        vllm: edit(
          VLLM,
          /api_version: inference\.networking\.k8s\.io\/v1/,
          'api_version: inference.networking.k8s.io',
        ),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: controller_kinds\.epp\[0\]\.api_version: must be an apiVersion, group\/version or v1, e\.g\. inference\.networking\.k8s\.io\/v1$/,
    ],
  },
  {
    rule: "controller_tls's config_map takes namespace, name, key and field only",
    changes: {
      profiles: {
        vllm: edit(
          VLLM,
          /field: enableLLMInferenceServiceTLS/,
          'feild: enableLLMInferenceServiceTLS',
        ),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: controller_tls\.aigateway\.config_map\.field: is required \(the JSON boolean field that turns TLS on, e\.g\. enableLLMInferenceServiceTLS\)/,
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: controller_tls\.aigateway\.config_map\.feild: unknown key 'feild'; did you mean 'field'\?/,
    ],
  },
  {
    rule: 'a gateway_config entry needs a known format, a scalar must_be and a dot-path field',
    changes: {
      profiles: {
        vllm: edit(
          edit(
            edit(VLLM, /format: yaml/, 'format: toml'),
            /must_be: true/,
            'must_be: [true]',
          ),
          /field: extensionApis\.enableBackend/,
          'field: extensionApis..enableBackend',
        ),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: gateway_config\.aigateway\[0\]\.config_map\.field: must be a dot path of field names, e\.g\. extensionApis\.enableBackend$/,
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: gateway_config\.aigateway\[0\]\.format: format must be json or yaml: how the ConfigMap key is written$/,
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: gateway_config\.aigateway\[0\]\.must_be: must_be must be a boolean, a number or a string, e\.g\. true$/,
    ],
  },
  {
    rule: 'a gateway_config entry names its keys; a misspelt one is pointed at the right one',
    changes: {
      profiles: {
        vllm: edit(VLLM, /needed_for: /, 'neded_for: '),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: gateway_config\.aigateway\[0\]\.needed_for: is required \(what the controller accepts only then, e\.g\. the model's Backend\)$/,
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: gateway_config\.aigateway\[0\]\.neded_for: unknown key 'neded_for'; did you mean 'needed_for'\? allowed here: controller, config_map, format, must_be, must_be_set, unset, needed_for, how$/,
    ],
  },
  {
    rule: "gateway_class's config_map and format go together",
    changes: {
      profiles: {
        vllm: edit(
          VLLM,
          /\n {4}format: yaml\n# Where clients call/,
          '\n# Where clients call',
        ),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: gateway_class\.aigateway\.config_map: config_map and format go together: where the controller names its controllerName, and how that key is written$/,
    ],
  },
  {
    rule: "gateway_class's keys are named; a misspelt one is refused at its line",
    changes: {
      profiles: {
        vllm: edit(
          VLLM,
          /controller_name: gateway\.envoyproxy/,
          'controler_name: gateway.envoyproxy',
        ),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: gateway_class\.aigateway\.controller_name: is required \(the GatewayClass controllerName it serves by default, e\.g\. gateway\.envoyproxy\.io\/gatewayclass-controller\)$/,
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: gateway_class\.aigateway\.controler_name: unknown key 'controler_name'; did you mean 'controller_name'\? allowed here: controller, controller_name, config_map, format$/,
    ],
  },
  {
    rule: 'a gateway_config entry says must_be or must_be_set, not both',
    changes: {
      profiles: {
        vllm: edit(
          VLLM,
          /must_be: true\n/,
          'must_be: true\n      must_be_set: true\n',
        ),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: gateway_config\.aigateway\[0\]\.must_be_set: say what the field must be: must_be \(the value, e\.g\. true\) or must_be_set: true \(any value\), not both$/,
    ],
  },
  {
    rule: 'a gateway_config entry without must_be or must_be_set is pointed at the entry',
    changes: {
      profiles: {
        vllm: edit(VLLM, / {6}must_be: true\n {6}unset: false\n/, ''),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: gateway_config\.aigateway\[0\]: say what the field must be: must_be \(the value, e\.g\. true\) or must_be_set: true \(any value\), not both$/,
    ],
  },
  {
    rule: 'must_be_set is true or left out; unset goes with must_be only',
    changes: {
      profiles: {
        vllm: edit(
          VLLM,
          /must_be_set: true\n/,
          'must_be_set: false\n      unset: {}\n',
        ),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: gateway_config\.aigateway\[1\]\.must_be_set: must_be_set must be true \(any value will do, as long as there is one\), or left out for must_be$/,
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: gateway_config\.aigateway\[1\]\.unset: unset must be a boolean, a number or a string, e\.g\. true$/,
    ],
  },
  {
    rule: 'with must_be_set, a field not set is what fails: unset has no place',
    changes: {
      profiles: {
        vllm: edit(
          VLLM,
          /must_be_set: true\n/,
          'must_be_set: true\n      unset: x\n',
        ),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: gateway_config\.aigateway\[1\]\.unset: unset is the default the controller takes for must_be; with must_be_set, a field not set is what fails: remove unset$/,
    ],
  },
  {
    rule: 'a made refusal object is read at its apiVersion: made_from without api_version is refused',
    changes: {
      profiles: {
        vllm: edit(
          VLLM,
          /api_version: gateway\.networking\.k8s\.io\/v1\n {6}made_from: AIGatewayRoute\n/,
          'made_from: AIGatewayRoute\n',
        ),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: status\.refusals\[3\]\.made_from: made_from and api_version go together: an object a controller makes is read at its apiVersion$/,
    ],
  },
  {
    rule: 'a made refusal object names the rendered kind it is made from (a misspelt one would never match)',
    changes: {
      profiles: {
        vllm: edit(
          VLLM,
          /made_from: AIGatewayRoute/,
          'made_from: AIGatewayRout',
        ),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: status\.refusals\[3\]\.made_from: AIGatewayRout is not a kind this profile's routing renders \(Backend, AIServiceBackend, AIGatewayRoute\); made_from names the rendered object a controller makes the HTTPRoute from$/,
    ],
  },
  {
    rule: 'a status.refusals status is a condition status, quoted (YAML reads False unquoted as a boolean)',
    changes: {
      profiles: {
        vllm: edit(VLLM, /status: "False"/, 'status: False'),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: status\.refusals\[0\]\.status: status must be True, False or Unknown \(quote it in YAML: "False"\)$/,
    ],
  },
  {
    rule: 'a status.refusals kind must be one the routing renders (a misspelt one would never match)',
    changes: {
      profiles: {
        vllm: edit(VLLM, /- kind: AIServiceBackend/, '- kind: AIServiceBakend'),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: status\.refusals\[1\]\.kind: AIServiceBakend is not a kind this profile's routing renders \(Backend, AIServiceBackend, AIGatewayRoute\); fix the kind, remove the entry, or name what a controller makes it from \(made_from, api_version\)$/,
    ],
  },
  {
    rule: "controller_gateway's default must be namespace/name",
    changes: {
      profiles: {
        vllm: edit(
          VLLM,
          /default: kserve\/kserve-ingress-gateway/,
          'default: kserve-ingress-gateway',
        ),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: controller_gateway\.epp\.default: default must be namespace\/name, e\.g\. kserve\/kserve-ingress-gateway$/,
    ],
  },
  {
    rule: 'a routing value without an endpoint rule is refused at the profile, naming the field to add',
    changes: {
      profiles: {
        vllm: edit(VLLM, /^ {2}epp:\n( {4}- from: .*\n( {6}.*\n)*)+/m, ''),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: routing\.epp: routing epp has no endpoint rule, so where clients call its models is not known: add endpoints\.epp/,
    ],
  },
  {
    rule: 'an endpoint path may only use ${api_prefix} and ${model.name}',
    changes: {
      profiles: {
        vllm: edit(
          VLLM,
          /^( {4}- from: gateway\n {6}path:) \/v1$/m,
          '$1 /${port}/v1',
        ),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: endpoints\.epp\[2\]\.path: path may use \$\{api_prefix\} and \$\{model\.name\} only, not \$\{port\}$/,
    ],
  },
  {
    rule: 'a model using kv_cache_gb on an engine whose profile has no kv_cache: gets an error, not silent output',
    changes: {
      models: modelsYaml(
        MODELS.replace(
          '      runtime: openvino\n',
          '      runtime: openvino\n      resources: { kv_cache_gb: 2 }\n',
        ),
      ),
    },
    expected: [
      /^models\.yaml:\d+:\d+: models\.ov-embed\.server\.resources\.kv_cache_gb: kv_cache_gb sizes the engine's KV cache; runtime openvino \(InferenceService, OpenVINO Model Server\) declares no KV-cache variable in its engine profile \(runtimes\/openvino\/profile\.yaml, kv_cache:\), so it does not use it\. Remove it$/,
    ],
  },
  {
    rule: 'a model using weight_format on an engine whose profile has no weights: gets an error',
    changes: {
      models: modelsYaml(
        MODELS.replace(
          '    category: llm\n',
          '    category: llm\n    weight_format: int8\n',
        ),
      ),
    },
    expected: [
      /^models\.yaml:\d+:\d+: models\.chat\.weight_format: weight_format is a conversion knob for ovms --pull; runtime vllm \(LLMInferenceService, vLLM\) does not convert weights \(its engine profile runtimes\/vllm\/profile\.yaml has no weights:\)\. Remove weight_format$/,
    ],
  },
  {
    rule: 'the KV-cache variable comes from the profile: another name is set from kv_cache_gb',
    changes: {
      profiles: {
        vllm: edit(
          VLLM,
          'env: VLLM_CPU_KVCACHE_SPACE',
          'env: ENGINE_KV_CACHE_GIB',
        ),
      },
      models: modelsYaml(
        MODELS.replace(
          '      runtime: vllm\n',
          '      runtime: vllm\n      env: { VLLM_CPU_KVCACHE_SPACE: "99999" }\n',
        ),
      ),
    },
    // The old name is an ordinary variable now; nothing refuses it.
    expected: [],
  },
  {
    rule: 'a known signature (diagnosis:) needs a valid regular expression and a known where',
    changes: {
      profiles: {
        vllm: edit(
          edit(
            VLLM,
            'match: Cannot access gated repo|GatedRepoError',
            'match: Cannot access (gated repo',
          ),
          'where: log\n    match: Repository Not Found',
          'where: stdout\n    match: Repository Not Found',
        ),
      },
    },
    expected: [
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: diagnosis\[0\]\.match: match is not a valid \(JavaScript\) regular expression$/,
      /^runtimes\/vllm\/profile\.yaml:\d+:\d+: diagnosis\[1\]\.where: where must be log \(a container log line\), event/,
    ],
  },
];

describe('engine profiles: validation', () => {
  it.each(rules)('$rule', ({ changes, expected }) => {
    const found = problems({
      models: modelsYaml(MODELS),
      ...changes,
    });
    expect(found).toHaveLength(expected.length);
    expected.forEach((re, i) => expect(found[i]).toMatch(re));
  });

  it('a runtime with no profile file is told to add one or name one', () => {
    const sources = fixtureSources({ models: modelsYaml(MODELS) });
    delete sources.profiles['openvino/profile.yaml'];
    let error: unknown;
    try {
      buildCatalog(sources);
    } catch (e) {
      error = e;
    }
    expect((error as CatalogError).problems).toEqual([
      expect.objectContaining({
        file: 'models.yaml',
        path: 'runtimes.openvino',
        message:
          'runtime openvino has no engine profile: runtimes/openvino/profile.yaml does not exist. Add it (what the engine renders and how it reads its settings, e.g. runtimes/vllm/profile.yaml), or name an existing one with profile: (e.g. profile: vllm/profile.yaml)',
      }),
    ]);
  });
});
