import { CatalogError } from '../source/problems';
import { modelsYaml, fixtureSources } from '../testUtils/catalogFixtures';
import { resolveModel } from '../resolver/resolveModel';
import { buildCatalog } from './buildCatalog';

const GOOD_MODEL = `
  chat:
    model_id: org/chat
    category: llm
    server:
      runtime: vllm
`;

function problemsOf(sources: ReturnType<typeof fixtureSources>) {
  try {
    buildCatalog(sources);
  } catch (e) {
    if (e instanceof CatalogError) return e.problems;
    throw e;
  }
  throw new Error('expected the catalog to be invalid');
}

describe('buildCatalog', () => {
  it("loads the repository's models.yaml: every example model resolves", () => {
    const catalog = buildCatalog(fixtureSources());
    expect(Object.keys(catalog.models)).toHaveLength(9);
    expect(Object.keys(catalog.runtimes)).toEqual(['vllm', 'openvino']);
    expect(catalog.runtimes.vllm.versioned).toBe(true);
    expect(catalog.runtimes.openvino.versioned).toBe(false);
    expect(catalog.runtimes.openvino.servingRuntime?.manifest).toMatchObject({
      kind: 'ClusterServingRuntime',
      metadata: { name: 'openvino-runtime' },
    });
  });

  it('takes YAML merge keys: a model server built on an anchored one, its own keys winning', () => {
    const catalog = buildCatalog(
      fixtureSources({
        models: modelsYaml(`
  chat:
    model_id: org/chat
    category: llm
    server: &chat-server
      runtime: vllm
      server_version: "0.19.1"
      env: { VLLM_LOGGING_LEVEL: DEBUG }
  chat-2:
    model_id: org/chat-2
    category: llm
    server:
      <<: *chat-server
      env: { VLLM_LOGGING_LEVEL: WARNING }
`),
      }),
    );
    const resolved = resolveModel(catalog, catalog.models['chat-2']);
    if (!('server' in resolved)) throw new Error(JSON.stringify(resolved));
    expect(resolved.server.version?.value).toBe('0.19.1');
    expect(
      resolved.server.env.find(e => e.name === 'VLLM_LOGGING_LEVEL')?.value,
    ).toBe('WARNING');
  });

  // Each row: what is wrong, the broken models.yaml, and the located message the user sees.
  const badModels: Array<[string, string, string]> = [
    [
      'YAML syntax error',
      modelsYaml(`${GOOD_MODEL}  broken: [unclosed\n`),
      'models.yaml:9:1: : YAML: Flow sequence in block collection',
    ],
    [
      // Found by an independent reading of the spec: `0.10:` was the version "0.1", which
      // `--server-version 0.10` could not name.
      'a version key YAML reads as a number',
      modelsYaml(GOOD_MODEL).replace(
        '      "0.19.1":\n',
        '      0.10:\n        image: "docker.io/vllm/vllm-openai-cpu:v0.10.0"\n      "0.19.1":\n',
      ),
      `: YAML: the key 0.10 is read as the number 0.1, so it would be named '0.1'; quote it ("0.10") to keep it as written`,
    ],
    [
      'a server_version YAML read as null',
      modelsYaml(
        GOOD_MODEL.replace(
          'runtime: vllm',
          'runtime: vllm\n      server_version:',
        ),
      ),
      'models.chat.server.server_version: must be a string (a key of the runtime versions:), and YAML read it as null (an empty value or ~); write the value, or remove the key',
    ],
    [
      'a server_version YAML read as a number',
      modelsYaml(
        GOOD_MODEL.replace(
          'runtime: vllm',
          'runtime: vllm\n      server_version: 1.0',
        ),
      ),
      'models.chat.server.server_version: must be a string (a key of the runtime versions:); quote it if YAML read it as a number or boolean',
    ],
    [
      'duplicate key',
      modelsYaml(`${GOOD_MODEL}${GOOD_MODEL}`),
      "models.yaml:8:3: : YAML: Map keys must be unique; 'chat' appears again here. Each key may appear once in a mapping",
    ],
    [
      'unknown key with a did-you-mean',
      modelsYaml(
        GOOD_MODEL.replace(
          'runtime: vllm',
          'runtime: vllm\n      server_verison: "0.19.1"',
        ),
      ),
      "models.yaml:7:7: models.chat.server.server_verison: unknown key 'server_verison'; did you mean 'server_version'?",
    ],
    [
      'unknown top-level key',
      `${modelsYaml(GOOD_MODEL)}\nmodel:\n  x: 1\n`,
      "unknown key 'model'; did you mean 'models'?",
    ],
    [
      'missing model_id',
      modelsYaml(GOOD_MODEL.replace('    model_id: org/chat\n', '')),
      'models.yaml:2:3: models.chat.model_id: is required',
    ],
    [
      'wrong type: category is a list',
      modelsYaml(GOOD_MODEL.replace('category: llm', 'category: [llm]')),
      'models.yaml:4:15: models.chat.category: must be a string',
    ],
    [
      'wrong type: moe is a string',
      modelsYaml(
        GOOD_MODEL.replace('category: llm', 'category: llm\n    moe: "yes"'),
      ),
      'models.chat.moe: moe must be true or false',
    ],
    [
      'unknown runtime',
      modelsYaml(GOOD_MODEL.replace('runtime: vllm', 'runtime: tgi')),
      "models.yaml:6:7: models.chat.server.runtime: unknown runtime 'tgi'; runtimes: vllm, openvino",
    ],
    [
      'unknown category',
      modelsYaml(GOOD_MODEL.replace('category: llm', 'category: chat')),
      "models.yaml:4:5: models.chat.category: unknown category 'chat' for runtime vllm; its categories: llm, embed, rerank, vlm",
    ],
    [
      'unknown server_version',
      modelsYaml(
        GOOD_MODEL.replace(
          'runtime: vllm',
          'runtime: vllm\n      server_version: "0.1.0"',
        ),
      ),
      "models.yaml:7:7: models.chat.server.server_version: unknown server version '0.1.0' for runtime vllm",
    ],
    [
      'model name not a DNS label',
      modelsYaml(GOOD_MODEL.replace('  chat:', '  Chat_Model:')),
      "models.Chat_Model: model names name Kubernetes objects, so they must match KServe's InferenceService name pattern",
    ],
    [
      'env name not a C identifier',
      modelsYaml(
        GOOD_MODEL.replace(
          'runtime: vllm',
          'runtime: vllm\n      env: { "MY-VAR": "1" }',
        ),
      ),
      'env names must be C identifiers',
    ],
    [
      'memory not a quantity',
      modelsYaml(
        GOOD_MODEL.replace(
          'runtime: vllm',
          'runtime: vllm\n      resources: { memory: lots }',
        ),
      ),
      'models.chat.server.resources.memory: memory must be a Kubernetes quantity such as 8, 500m or 16Gi',
    ],
    [
      'model_id not owner/name',
      modelsYaml(GOOD_MODEL.replace('org/chat', 'chat')),
      'models.chat.model_id: model_id must be a Hugging Face repo id of the form owner/name',
    ],
    [
      'arg with a newline',
      modelsYaml(
        GOOD_MODEL.replace(
          'runtime: vllm',
          'runtime: vllm\n      args: ["--a\\n--b"]',
        ),
      ),
      'models.chat.server.args[0]: must be a single line',
    ],
    [
      'arg that is not a flag',
      modelsYaml(
        GOOD_MODEL.replace(
          'runtime: vllm',
          'runtime: vllm\n      args: ["--max-model-len", "4096"]',
        ),
      ),
      "models.chat.server.args[1]: '4096' is not a flag",
    ],
    [
      'default_version not a version',
      modelsYaml(GOOD_MODEL).replace(
        'default_version: "0.24.0"',
        'default_version: "0.23.0"',
      ),
      "runtimes.vllm.default_version: default_version '0.23.0' is not a key of versions: (0.24.0, 0.19.1)",
    ],
    [
      'version without image',
      modelsYaml(GOOD_MODEL).replace(
        '        image: "docker.io/vllm/vllm-openai-cpu:v0.19.1"\n',
        '',
      ),
      'runtimes.vllm.versions["0.19.1"].image: is required',
    ],
    [
      'alias bomb',
      `a: &a ["x","x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\n`,
      'models.yaml:1:1: : YAML: Excessive alias count',
    ],
    [
      'not a mapping at all',
      '- a\n- b\n',
      'models.yaml:1:1: : must be a map (key: value lines), and YAML read a list here',
    ],
    [
      'a key with nothing under it (YAML reads null), said empty, not "Expected object, received null"',
      modelsYaml(
        GOOD_MODEL.replace('runtime: vllm', 'runtime: vllm\n      resources:'),
      ),
      'models.chat.server.resources: is empty: YAML reads `resources:` with nothing after it as null; write key: value lines under it',
    ],
    [
      'a map written as a string',
      modelsYaml(
        GOOD_MODEL.replace(
          'runtime: vllm',
          'runtime: vllm\n      resources: big',
        ),
      ),
      'models.chat.server.resources: must be a map (key: value lines), and YAML read a string here',
    ],
    ['empty file', '', 'models: is required'],
  ];

  it.each(badModels)(
    'refuses %s with file:line:col, path and fix',
    (_name, text, expected) => {
      const problems = problemsOf(fixtureSources({ models: text }));
      const messages = problems.map(
        p => `${p.file}:${p.line}:${p.col}: ${p.path}: ${p.message}`,
      );
      expect(messages.join('\n')).toContain(expected);
      for (const p of problems) expect(p.file).toBe('models.yaml');
    },
  );

  it('refuses a values.yaml with an unknown key, naming that file', () => {
    const problems = problemsOf(
      fixtureSources({
        values: {
          vllm: 'device: cpu\nkind: LLMInferenceService\nrouting: epp\nroute: x\n',
        },
      }),
    );
    expect(problems).toEqual([
      expect.objectContaining({
        file: 'runtimes/vllm/values.yaml',
        line: 4,
        col: 1,
        path: 'route',
        message: expect.stringContaining(
          "unknown key 'route'; did you mean 'routing'?",
        ),
      }),
    ]);
  });

  it('refuses a values.yaml with a wrong kind', () => {
    const problems = problemsOf(
      fixtureSources({ values: { vllm: 'kind: Deployment\n' } }),
    );
    expect(problems[0]).toMatchObject({
      file: 'runtimes/vllm/values.yaml',
      line: 1,
      col: 7,
      path: 'kind',
      // The kinds in the order the loader reads the profiles (by runtime folder name).
      message: 'kind must be one of InferenceService, LLMInferenceService',
    });
  });

  it('refuses a template with an unknown placeholder, naming template file:line', () => {
    const problems = problemsOf(
      fixtureSources({
        templates: {
          'inference-service.yaml':
            'apiVersion: v1\nkind: X\nmetadata:\n  name: ${model.nmae}\n',
        },
      }),
    );
    expect(problems[0]).toMatchObject({
      file: 'runtimes/templates/inference-service.yaml',
      line: 4,
      col: 9,
    });
    expect(problems[0].message).toContain('unknown placeholder ${model.nmae}');
  });

  it('reports every problem at once, not only the first', () => {
    const text = modelsYaml(
      `${GOOD_MODEL.replace(
        'category: llm',
        'category: chat',
      )}  other:\n    model_id: org/other\n    category: llm\n    server:\n      runtime: tgi\n`,
    );
    expect(problemsOf(fixtureSources({ models: text }))).toHaveLength(2);
  });
});
