import { InputError, NotFoundError } from '@backstage/errors';
import { buildCatalog } from '../catalog/buildCatalog';
/** vLLM's KV-cache variable, as runtimes/vllm/profile.yaml declares it. */
const KV_CACHE_ENV = 'VLLM_CPU_KVCACHE_SPACE';
import { modelsYaml, fixtureSources } from '../testUtils/catalogFixtures';
import { resolveServer } from './resolveServer';
import type { ResolvedServer, ServerOverrides } from './types';

const MODELS = `
  chat:
    model_id: org/chat
    category: llm
    server:
      runtime: vllm
  pinned:
    model_id: org/pinned
    category: llm
    server:
      runtime: vllm
      server_version: "0.19.1"
      env:
        VLLM_LOGGING_LEVEL: DEBUG
        MODEL_ONLY: "1"
      args: ["--no-enable-chunked-prefill", "--max-model-len=4096"]
  embedder:
    model_id: org/embedder
    category: embed
    server:
      runtime: vllm
  reranker:
    model_id: org/reranker
    category: rerank
    server:
      runtime: vllm
  seer:
    model_id: org/seer
    category: vlm
    server:
      runtime: vllm
  own-image:
    model_id: org/own
    category: llm
    server:
      runtime: vllm
      image: registry.example.com/vllm:patched
      resources: { cpu: 4, kv_cache_gb: 2 }
  experts:
    model_id: org/experts
    category: llm
    moe: true
    server:
      runtime: vllm
      args: ["--enable-expert-parallel"]
  ov-embed:
    model_id: OpenVINO/bge-small-en-v1.5-int8-ov
    category: embed
    server:
      runtime: openvino
  ov-llm:
    model_id: microsoft/Phi-3.5-mini-instruct
    category: llm
    weight_format: int4
    server:
      runtime: openvino
`;

const catalog = buildCatalog(fixtureSources({ models: modelsYaml(MODELS) }));
const resolve = (model: string, overrides?: ServerOverrides) =>
  resolveServer(catalog, model, overrides);
const env = (s: ResolvedServer) =>
  Object.fromEntries(s.env.map(e => [e.name, e.value]));
const envLayer = (s: ResolvedServer, name: string) =>
  s.env.find(e => e.name === name)?.origin.layer;
const args = (s: ResolvedServer) => s.args.map(a => a.value);

interface Rule {
  rule: string;
  check: () => void;
}

const rules: Rule[] = [
  {
    rule: 'env = runtime common env + category env + version env delta + per-model env + --env',
    check: () => {
      const s = resolve('pinned', {
        env: { MODEL_ONLY: '2', FROM_REQUEST: 'x' },
      });
      expect(env(s)).toEqual({
        VLLM_CPU_OMP_THREADS_BIND: 'auto',
        VLLM_ENABLE_PREFIX_CACHING: '1',
        VLLM_LOGGING_LEVEL: 'DEBUG',
        [KV_CACHE_ENV]: '8',
        VLLM_USE_V1: '1',
        MODEL_ONLY: '2',
        FROM_REQUEST: 'x',
      });
      expect(envLayer(s, 'VLLM_CPU_OMP_THREADS_BIND')).toBe('runtime-env');
      expect(envLayer(s, KV_CACHE_ENV)).toBe('category');
      expect(envLayer(s, 'VLLM_USE_V1')).toBe('version');
      expect(envLayer(s, 'VLLM_LOGGING_LEVEL')).toBe('model');
      expect(envLayer(s, 'MODEL_ONLY')).toBe('override');
      const logging = s.env.find(e => e.name === 'VLLM_LOGGING_LEVEL')!;
      expect(logging.overrode).toEqual([
        expect.objectContaining({
          value: 'INFO',
          origin: expect.objectContaining({
            layer: 'runtime-env',
            path: 'runtimes.vllm.env.VLLM_LOGGING_LEVEL',
          }),
        }),
      ]);
      const modelOnly = s.env.find(e => e.name === 'MODEL_ONLY')!;
      expect(modelOnly.overrode.map(o => [o.value, o.origin.layer])).toEqual([
        ['1', 'model'],
      ]);
    },
  },
  {
    rule: 'args = category args + version args delta + per-model args + --arg',
    check: () => {
      const e = resolve('embedder', { args: ['--max-num-seqs=8'] });
      expect(args(e)).toEqual(['--runner=pooling', '--max-num-seqs=8']);
      expect(e.args.map(a => a.origin.layer)).toEqual(['category', 'override']);
      const p = resolve('pinned', { args: ['--max-model-len=2048'] });
      expect(args(p)).toEqual([
        '--no-enable-chunked-prefill',
        '--max-model-len=2048',
      ]);
      expect(p.args[0].origin.layer).toBe('model');
      expect(p.args[0].overrode.map(o => [o.value, o.origin.layer])).toEqual([
        ['--enable-chunked-prefill', 'version'],
      ]);
    },
  },
  {
    rule: "image = the selected version's image",
    check: () => {
      expect(resolve('chat').image).toMatchObject({
        value: 'docker.io/vllm/vllm-openai-cpu:v0.24.0',
        origin: {
          layer: 'version',
          path: 'runtimes.vllm.versions["0.24.0"].image',
        },
      });
      expect(resolve('pinned').image.value).toBe(
        'docker.io/vllm/vllm-openai-cpu:v0.19.1',
      );
      expect(resolve('chat', { serverVersion: '0.19.1' }).image.value).toBe(
        'docker.io/vllm/vllm-openai-cpu:v0.19.1',
      );
    },
  },
  {
    rule: 'image = per-model image: overrides the version image',
    check: () => {
      const s = resolve('own-image');
      expect(s.image.value).toBe('registry.example.com/vllm:patched');
      expect(s.image.origin.layer).toBe('model');
      expect(s.image.overrode.map(o => o.value)).toEqual([
        'docker.io/vllm/vllm-openai-cpu:v0.24.0',
      ]);
    },
  },
  {
    rule: "version: the runtime's default_version when nothing else is set",
    check: () => {
      expect(resolve('chat').version).toMatchObject({
        value: '0.24.0',
        origin: { layer: 'runtime-default', file: 'models.yaml' },
      });
    },
  },
  {
    rule: "version: the model's server_version beats the runtime default",
    check: () => {
      const v = resolve('pinned').version!;
      expect(v).toMatchObject({
        value: '0.19.1',
        origin: { layer: 'model', path: 'models.pinned.server.server_version' },
      });
      expect(v.overrode.map(o => o.value)).toEqual(['0.24.0']);
    },
  },
  {
    rule: "version: --server-version beats the model's server_version",
    check: () => {
      const v = resolve('pinned', { serverVersion: '0.24.0' }).version!;
      expect(v.value).toBe('0.24.0');
      expect(v.origin.layer).toBe('override');
      expect(v.overrode.map(o => [o.value, o.origin.layer])).toEqual([
        ['0.24.0', 'runtime-default'],
        ['0.19.1', 'model'],
      ]);
      // The version delta of 0.19.1 no longer applies.
      expect(
        env(resolve('pinned', { serverVersion: '0.24.0' })),
      ).not.toHaveProperty('VLLM_USE_V1');
    },
  },
  {
    rule: 'adding a version is a new entry under versions: with no code changes',
    check: () => {
      const text = modelsYaml(MODELS).replace(
        '    versions:\n',
        '    versions:\n      "0.25.0":\n        image: "docker.io/vllm/vllm-openai-cpu:v0.25.0"\n',
      );
      const c = buildCatalog(fixtureSources({ models: text }));
      expect(
        resolveServer(c, 'chat', { serverVersion: '0.25.0' }).image.value,
      ).toBe('docker.io/vllm/vllm-openai-cpu:v0.25.0');
    },
  },
  {
    rule: 'an unknown --server-version is refused naming the known versions',
    check: () => {
      expect(() => resolve('chat', { serverVersion: '9.9.9' })).toThrow(
        NotFoundError,
      );
      expect(() => resolve('chat', { serverVersion: '9.9.9' })).toThrow(
        /unknown server version '9.9.9' for runtime vllm; versions: 0.24.0 \(default\), 0.19.1/,
      );
    },
  },
  {
    rule: "VLLM_CPU_KVCACHE_SPACE is set per category from that category's kv_cache_gb",
    check: () => {
      const chat = resolve('chat').env.find(e => e.name === KV_CACHE_ENV)!;
      expect(chat).toMatchObject({
        value: '8',
        origin: {
          layer: 'category',
          path: 'runtimes.vllm.categories.llm.defaults.kv_cache_gb',
        },
      });
      expect(env(resolve('seer'))[KV_CACHE_ENV]).toBe('8');
      const own = resolve('own-image');
      expect(env(own)[KV_CACHE_ENV]).toBe('2');
      expect(own.resources.kvCacheGb).toMatchObject({
        value: 2,
        origin: { layer: 'model' },
      });
    },
  },
  {
    rule: 'embed and rerank set no kv_cache_gb, so VLLM_CPU_KVCACHE_SPACE is omitted entirely',
    check: () => {
      for (const model of ['embedder', 'reranker']) {
        const s = resolve(model);
        expect(env(s)).not.toHaveProperty(KV_CACHE_ENV);
        expect(s.resources.kvCacheGb).toBeUndefined();
      }
    },
  },
  {
    rule: 'VLLM_CPU_KVCACHE_SPACE is deliberately not in the shared env',
    check: () => {
      const text = modelsYaml(MODELS).replace(
        '      VLLM_LOGGING_LEVEL: INFO\n',
        '      VLLM_LOGGING_LEVEL: INFO\n      VLLM_CPU_KVCACHE_SPACE: "4"\n',
      );
      expect(() => buildCatalog(fixtureSources({ models: text }))).toThrow(
        /models\.yaml:\d+:\d+: runtimes\.vllm\.env\.VLLM_CPU_KVCACHE_SPACE: VLLM_CPU_KVCACHE_SPACE is deliberately not in the shared env/,
      );
    },
  },
  {
    rule: 'cpu and memory come from the category defaults, replaced by the model',
    check: () => {
      const s = resolve('own-image');
      expect(s.resources.cpu).toMatchObject({
        value: '4',
        origin: { layer: 'model' },
        overrode: [{ value: '8' }],
      });
      expect(s.resources.memory).toMatchObject({
        value: '16Gi',
        origin: { layer: 'category' },
      });
      expect(resolve('seer').resources.memory.value).toBe('48Gi');
    },
  },
  {
    rule: 'plumbing is merged in from values.yaml at load time',
    check: () => {
      const s = resolve('chat');
      expect(s.kind).toBe('LLMInferenceService');
      expect(s.plumbing.routing).toMatchObject({
        value: 'epp',
        origin: {
          layer: 'plumbing',
          file: 'runtimes/vllm/values.yaml',
          line: expect.any(Number),
        },
      });
      expect(resolve('ov-embed').plumbing.runtime_name?.value).toBe(
        'openvino-runtime',
      );
    },
  },
  {
    rule: 'models.yaml wins on any plumbing key clash',
    check: () => {
      const text = modelsYaml(MODELS).replace(
        '  openvino:\n',
        '  openvino:\n    image: "openvino/model_server:2026.4"\n',
      );
      const c = buildCatalog(fixtureSources({ models: text }));
      const s = resolveServer(c, 'ov-embed');
      expect(s.image).toMatchObject({
        value: 'openvino/model_server:2026.4',
        origin: { file: 'models.yaml', path: 'runtimes.openvino.image' },
      });
    },
  },
  {
    rule: 'OpenVINO is flat: its image is the plumbing image, and it has no version',
    check: () => {
      const s = resolve('ov-embed');
      expect(s.version).toBeUndefined();
      expect(s.image).toMatchObject({
        value: 'openvino/model_server:2026.3',
        origin: { layer: 'plumbing', file: 'runtimes/openvino/values.yaml' },
      });
    },
  },
  {
    rule: 'OpenVINO: requesting --server-version aborts with a clear message',
    check: () => {
      expect(() => resolve('ov-embed', { serverVersion: '2026.3' })).toThrow(
        InputError,
      );
      expect(() => resolve('ov-embed', { serverVersion: '2026.3' })).toThrow(
        "<request>: serverVersion: runtime openvino is flat (it has no versions:), so a server version does not apply; remove --server-version (serverVersion: '2026.3')",
      );
    },
  },
  {
    rule: 'OpenVINO: server_version in models.yaml does not apply and is refused',
    check: () => {
      const text = modelsYaml(
        MODELS.replace(
          '      runtime: openvino\n',
          '      runtime: openvino\n      server_version: "1"\n',
        ),
      );
      expect(() => buildCatalog(fixtureSources({ models: text }))).toThrow(
        /models\.yaml:\d+:7: models\.ov-embed\.server\.server_version: runtime openvino is flat/,
      );
    },
  },
  {
    rule: 'weight_format is passed to ovms --pull for a raw Hugging Face repo',
    check: () => {
      expect(resolve('ov-llm').weightFormat).toMatchObject({
        value: 'int4',
        origin: { layer: 'model', path: 'models.ov-llm.weight_format' },
      });
    },
  },
  {
    rule: 'weight_format set for an OpenVINO/* IR model is an error naming the model and the fix',
    check: () => {
      const text = modelsYaml(
        MODELS.replace(
          '    category: embed\n    server:\n      runtime: openvino',
          '    category: embed\n    weight_format: int8\n    server:\n      runtime: openvino',
        ),
      );
      expect(() => buildCatalog(fixtureSources({ models: text }))).toThrow(
        /models\.yaml:\d+:5: models\.ov-embed\.weight_format: model ov-embed sets weight_format: int8, but OpenVINO\/bge-small-en-v1\.5-int8-ov is already OpenVINO IR; ovms --pull aborts with "unsupported for OpenVINO models"\. Remove weight_format/,
      );
    },
  },
  {
    rule: 'weight_format set by a category does not reach OpenVINO/* IR models silently',
    check: () => {
      const text = modelsYaml(MODELS).replace(
        '      embed:  { defaults: { cpu: 6, memory: "12Gi" } }\n      rerank: { defaults: { cpu: 6, memory: "12Gi" } }\n',
        '      embed:  { defaults: { cpu: 6, memory: "12Gi", weight_format: int8 } }\n      rerank: { defaults: { cpu: 6, memory: "12Gi" } }\n',
      );
      expect(() => buildCatalog(fixtureSources({ models: text }))).toThrow(
        /runtimes\.openvino\.categories\.embed\.defaults\.weight_format: model ov-embed sets weight_format: int8.*from the category/,
      );
    },
  },
  {
    rule: 'weight_format is refused on vLLM, which does not convert weights',
    check: () => {
      const text = modelsYaml(
        MODELS.replace(
          '  chat:\n    model_id: org/chat\n',
          '  chat:\n    model_id: org/chat\n    weight_format: int8\n',
        ),
      );
      expect(() => buildCatalog(fixtureSources({ models: text }))).toThrow(
        /models\.chat\.weight_format: weight_format is a conversion knob for ovms --pull; runtime vllm/,
      );
    },
  },
  {
    rule: 'MoE-only flags such as --enable-expert-parallel are refused on a model not marked MoE, naming the flag',
    check: () => {
      expect(() =>
        resolve('chat', { args: ['--enable-expert-parallel'] }),
      ).toThrow(
        '<request>: args[0]: --enable-expert-parallel is a MoE-only flag and crashes dense models; model chat is not marked moe: true',
      );
      const text = modelsYaml(MODELS).replace(
        '        args: ["--enable-chunked-prefill"]',
        '        args: ["--enable-chunked-prefill", "--enable-expert-parallel"]',
      );
      // A version delta with a MoE-only flag breaks every dense model pinned to that version.
      expect(() => buildCatalog(fixtureSources({ models: text }))).toThrow(
        /runtimes\.vllm\.versions\["0\.19\.1"\]\.args\[1\]: --enable-expert-parallel is a MoE-only flag.*model pinned/,
      );
    },
  },
  {
    rule: 'MoE-only flags are allowed on a model marked moe: true',
    check: () => {
      expect(args(resolve('experts'))).toEqual(['--enable-expert-parallel']);
    },
  },
  {
    rule: 'a repeated flag: the last layer wins, keeping the position where the flag first appeared',
    check: () => {
      const s = resolve('pinned', {
        args: ['--enable-chunked-prefill', '--seed=1', '--max-model-len=1024'],
      });
      expect(args(s)).toEqual([
        '--enable-chunked-prefill',
        '--max-model-len=1024',
        '--seed=1',
      ]);
      expect(s.args[0].overrode.map(o => [o.value, o.origin.layer])).toEqual([
        ['--enable-chunked-prefill', 'version'],
        ['--no-enable-chunked-prefill', 'model'],
      ]);
    },
  },
  {
    rule: 'a layer removes an inherited env var by setting it to null',
    check: () => {
      const s = resolve('chat', { env: { VLLM_ENABLE_PREFIX_CACHING: null } });
      expect(env(s)).not.toHaveProperty('VLLM_ENABLE_PREFIX_CACHING');
      expect(s.removedEnv).toEqual([
        expect.objectContaining({
          name: 'VLLM_ENABLE_PREFIX_CACHING',
          origin: expect.objectContaining({ layer: 'override' }),
          overrode: [expect.objectContaining({ value: '1' })],
        }),
      ]);
      const text = modelsYaml(
        MODELS.replace(
          '        MODEL_ONLY: "1"\n',
          '        MODEL_ONLY: "1"\n        VLLM_CPU_OMP_THREADS_BIND: null\n',
        ),
      );
      const c = buildCatalog(fixtureSources({ models: text }));
      const pinned = resolveServer(c, 'pinned');
      expect(pinned.env.map(e => e.name)).not.toContain(
        'VLLM_CPU_OMP_THREADS_BIND',
      );
      expect(pinned.removedEnv[0].origin).toMatchObject({
        layer: 'model',
        path: 'models.pinned.server.env.VLLM_CPU_OMP_THREADS_BIND',
        line: expect.any(Number),
      });
    },
  },
  {
    rule: 'origins name the file, line and column of the value',
    check: () => {
      const v = resolve('pinned').version!;
      const line =
        modelsYaml(MODELS)
          .split('\n')
          .findIndex(l => l.includes('server_version: "0.19.1"')) + 1;
      expect(v.origin).toEqual({
        layer: 'model',
        file: 'models.yaml',
        path: 'models.pinned.server.server_version',
        line,
        col: 7,
      });
    },
  },
  {
    rule: 'inputs are never mutated',
    check: () => {
      const before =
        JSON.stringify(catalog.models) + JSON.stringify(catalog.runtimes);
      const overrides = {
        env: { A: '1', VLLM_LOGGING_LEVEL: null },
        args: ['--seed=2'],
        serverVersion: '0.19.1',
      };
      const copy = JSON.stringify(overrides);
      resolve('pinned', overrides);
      resolve('chat', overrides);
      expect(
        JSON.stringify(catalog.models) + JSON.stringify(catalog.runtimes),
      ).toBe(before);
      expect(JSON.stringify(overrides)).toBe(copy);
    },
  },
  {
    rule: 'an unknown model is a NotFoundError',
    check: () => {
      expect(() => resolve('nope')).toThrow(NotFoundError);
      expect(() => resolve('__proto__')).toThrow(NotFoundError);
    },
  },
];

describe('resolveServer: the layering rules of runtimes.md', () => {
  it.each(rules)('$rule', ({ check }) => check());
});

describe('resolveServer: request overrides are validated before anything else', () => {
  const bad: Array<[string, ServerOverrides, RegExp]> = [
    [
      'env name not a C identifier',
      { env: { '1BAD': 'x' } },
      /env\.1BAD: env name '1BAD' is not a C identifier/,
    ],
    [
      'env value with a newline',
      { env: { A: 'x\ny' } },
      /env\.A: env value must be a single line/,
    ],
    [
      'arg with a newline',
      { args: ['--a=1\n--b'] },
      /args\[0\]: arg must be a single line/,
    ],
    [
      'arg that is not a flag',
      { args: ['8192'] },
      /args\[0\]: '8192' is not a flag/,
    ],
    [
      '1 MB value',
      { env: { A: 'x'.repeat(1024 * 1024) } },
      /env\.A: env value is 1048576 characters, more than the 16384 allowed/,
    ],
    [
      'wrong JSON type for args',
      { args: 'x' as any },
      /args: args must be a list/,
    ],
    [
      'wrong JSON type for env',
      { env: ['A=1'] as any },
      /env: env must be a map/,
    ],
    [
      'serverVersion with YAML metacharacters',
      { serverVersion: '0.24.0\n- x' },
      /serverVersion: serverVersion must be a version key/,
    ],
  ];
  it.each(bad)('%s', (_name, overrides, message) => {
    expect(() => resolve('chat', overrides)).toThrow(InputError);
    expect(() => resolve('chat', overrides)).toThrow(message);
  });
});
