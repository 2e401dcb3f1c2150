import { InputError } from '@backstage/errors';
import { buildCatalog } from '../catalog/buildCatalog';
/** vLLM's KV-cache variable, as runtimes/vllm/profile.yaml declares it. */
const KV_CACHE_ENV = 'VLLM_CPU_KVCACHE_SPACE';
import { CatalogError } from '../source/problems';
import { modelsYaml, fixtureSources } from '../testUtils/catalogFixtures';
import { explainServer } from './explainServer';
import { resolveServer } from './resolveServer';

/**
 * The edges where vLLM, OVMS and KServe read our output differently from a naive check: flags as
 * vLLM's parser reads them, OpenVINO/ as OVMS matches it, null as "remove the inherited value",
 * plumbing that applies.
 */
const MODELS = `
  dense:
    model_id: org/dense
    category: llm
    server:
      runtime: vllm
      args: ["--max-model-len=8192"]
  experts:
    model_id: org/experts
    category: llm
    moe: true
    server:
      runtime: vllm
  ov-ir:
    model_id: OpenVINO/bge-small-en-v1.5-int8-ov
    category: embed
    server:
      runtime: openvino
`;
const catalog = buildCatalog(fixtureSources({ models: modelsYaml(MODELS) }));
const resolve = (model: string, overrides = {}) =>
  resolveServer(catalog, model, overrides);
const problems = (text: string): string => {
  try {
    buildCatalog(fixtureSources({ models: text }));
    return '';
  } catch (e) {
    if (!(e instanceof CatalogError)) throw e;
    return e.problems
      .map(p => `${p.file}:${p.line}:${p.col}: ${p.path}: ${p.message}`)
      .join('\n');
  }
};
const withModel = (extra: string) => modelsYaml(MODELS + extra);

interface Rule {
  rule: string;
  check: () => void;
}

const rules: Rule[] = [
  // vLLM FlexibleArgumentParser.parse_args (vllm/utils/argparse_utils.py): `_` and `-` alike.
  {
    rule: 'MoE guard: --enable_expert_parallel (underscores) is refused on a dense model',
    check: () =>
      expect(() =>
        resolve('dense', { args: ['--enable_expert_parallel'] }),
      ).toThrow(
        '<request>: args[0]: --enable_expert_parallel (--enable-expert-parallel) is a MoE-only flag and crashes dense models; model dense is not marked moe: true',
      ),
  },
  // vLLM EngineArgs.add_cli_args (vllm/engine/arg_utils.py): short alias -ep.
  {
    rule: 'MoE guard: the short alias -ep is refused on a dense model',
    check: () =>
      expect(() => resolve('dense', { args: ['-ep'] })).toThrow(
        /args\[0\]: -ep \(--enable-expert-parallel\) is a MoE-only flag/,
      ),
  },
  {
    rule: 'MoE guard: a MoE-only flag in any spelling in models.yaml is refused with its file:line',
    check: () =>
      expect(
        problems(
          withModel(
            '  dense2:\n    model_id: org/d\n    category: llm\n    server:\n      runtime: vllm\n      args: ["--enable_eplb"]\n',
          ),
        ),
      ).toMatch(
        /models\.yaml:\d+:\d+: models\.dense2\.server\.args\[0\]: --enable_eplb \(--enable-eplb\) is a MoE-only flag/,
      ),
  },
  {
    rule: 'MoE guard: any spelling is allowed on a model marked moe: true, and the output keeps the spelling written',
    check: () =>
      expect(
        resolve('experts', { args: ['-ep', '--enable_eplb'] }).args.map(
          a => a.value,
        ),
      ).toEqual(['-ep', '--enable_eplb']),
  },
  {
    rule: 'a repeated flag in another spelling replaces the earlier one: --max_model_len=1024 replaces --max-model-len=8192',
    check: () => {
      const s = resolve('dense', { args: ['--max_model_len=1024'] });
      expect(s.args.map(a => a.value)).toEqual(['--max_model_len=1024']);
      expect(s.args[0]).toMatchObject({
        flag: '--max_model_len',
        key: '--max-model-len',
        overrode: [{ value: '--max-model-len=8192' }],
      });
    },
  },
  // argparse reads one argv item as one token: "--max-model-len 4096" is not --max-model-len.
  {
    rule: 'an args item is one flag: "--max-model-len 4096" is refused with the fix',
    check: () =>
      expect(() =>
        resolve('dense', { args: ['--max-model-len 4096'] }),
      ).toThrow(
        "<request>: args[0]: '--max-model-len 4096' is a flag and its value in one item separated by a space; the engine gets it as one token and does not read it as --max-model-len. Write --max-model-len=4096",
      ),
  },
  {
    rule: 'an args item is one flag: "--" alone is refused',
    check: () => {
      expect(() => resolve('dense', { args: ['--'] })).toThrow(InputError);
      expect(() => resolve('dense', { args: ['--'] })).toThrow(
        /args\[0\]: '--' alone is not a flag/,
      );
    },
  },
  {
    rule: 'an args item is one flag: "-" alone is refused, in models.yaml too',
    check: () =>
      expect(
        problems(
          withModel(
            '  dash:\n    model_id: org/d\n    category: llm\n    server:\n      runtime: vllm\n      args: ["-"]\n',
          ),
        ),
      ).toMatch(/models\.dash\.server\.args\[0\]: '-' alone is not a flag/),
  },
  // OVMS isOptimumCliDownload (src/capi_frontend/server_settings.cpp): toLower(sourceModel) starts with "openvino/".
  {
    rule: 'OpenVINO/ is matched case-insensitively, as OVMS does: openvino/... with weight_format is refused',
    check: () =>
      expect(
        problems(
          withModel(
            '  lower-ir:\n    model_id: openvino/Qwen3-8B-int4-ov\n    category: llm\n    weight_format: int4\n    server:\n      runtime: openvino\n',
          ),
        ),
      ).toMatch(
        /models\.lower-ir\.weight_format: model lower-ir sets weight_format: int4, but openvino\/Qwen3-8B-int4-ov is already OpenVINO IR/,
      ),
  },
  {
    rule: 'null removes an inherited value: weight_format: null opts an OpenVINO/* model out of its category default',
    check: () => {
      const text = withModel(
        '  ov-ir-optout:\n    model_id: OpenVINO/bge-m3-int8-ov\n    category: embed\n    weight_format: null\n    server:\n      runtime: openvino\n',
      ).replace(
        '      embed:  { defaults: { cpu: 6, memory: "12Gi" } }\n      rerank: { defaults: { cpu: 6, memory: "12Gi" } }\n',
        '      embed:  { defaults: { cpu: 6, memory: "12Gi", weight_format: int8 } }\n      rerank: { defaults: { cpu: 6, memory: "12Gi" } }\n',
      );
      // ov-ir (no opt-out) is still refused; ov-ir-optout is not mentioned.
      expect(problems(text)).toMatch(
        /model ov-ir sets weight_format: int8.*set weight_format: null on the model/,
      );
      expect(problems(text)).not.toMatch(/ov-ir-optout/);
      const c = buildCatalog(
        fixtureSources({
          models: text.replace(/ {2}ov-ir:\n( {4}.*\n| {6}.*\n)*/, ''),
        }),
      );
      const s = resolveServer(c, 'ov-ir-optout');
      expect(s.weightFormat).toBeUndefined();
      expect(s.removed).toEqual([
        expect.objectContaining({
          key: 'weight_format',
          origin: expect.objectContaining({
            layer: 'model',
            path: 'models.ov-ir-optout.weight_format',
          }),
          overrode: [expect.objectContaining({ value: 'int8' })],
        }),
      ]);
      expect(explainServer(s)).toContainEqual(
        expect.objectContaining({
          key: 'weight_format',
          value: '(removed)',
          layer: 'model',
        }),
      );
    },
  },
  {
    rule: `null removes an inherited value: resources.kv_cache_gb: null removes ${KV_CACHE_ENV}`,
    check: () => {
      const c = buildCatalog(
        fixtureSources({
          models: withModel(
            '  no-kv:\n    model_id: org/no-kv\n    category: llm\n    server:\n      runtime: vllm\n      resources: { kv_cache_gb: null }\n',
          ),
        }),
      );
      const s = resolveServer(c, 'no-kv');
      expect(s.env.map(e => e.name)).not.toContain(KV_CACHE_ENV);
      expect(s.resources.kvCacheGb).toBeUndefined();
      expect(s.removedEnv).toEqual([
        expect.objectContaining({
          name: KV_CACHE_ENV,
          origin: expect.objectContaining({
            path: 'models.no-kv.server.resources.kv_cache_gb',
          }),
        }),
      ]);
      expect(s.removed).toEqual([
        expect.objectContaining({ key: 'resources.kv_cache_gb' }),
      ]);
    },
  },
  {
    rule: `the model's server.resources.kv_cache_gb wins over the version env delta and the model's own server.env for ${KV_CACHE_ENV}`,
    check: () => {
      const text = withModel(
        '  kv-order:\n    model_id: org/kv-order\n    category: llm\n    server:\n      runtime: vllm\n      server_version: "0.19.1"\n      env: { VLLM_CPU_KVCACHE_SPACE: "4" }\n      resources: { kv_cache_gb: 2 }\n',
      ).replace(
        '          VLLM_USE_V1: "1"\n',
        '          VLLM_USE_V1: "1"\n          VLLM_CPU_KVCACHE_SPACE: "6"\n',
      );
      const kv = resolveServer(
        buildCatalog(fixtureSources({ models: text })),
        'kv-order',
      ).env.find(e => e.name === KV_CACHE_ENV)!;
      expect(kv.value).toBe('2');
      expect(kv.origin.path).toBe(
        'models.kv-order.server.resources.kv_cache_gb',
      );
      expect(kv.overrode.map(o => [o.value, o.origin.layer])).toEqual([
        ['8', 'category'],
        ['6', 'version'],
        ['4', 'model'],
      ]);
    },
  },
  {
    rule: 'null on cpu or memory removes the category value, and a pod without them is refused naming the key',
    check: () =>
      expect(
        problems(
          withModel(
            '  no-cpu:\n    model_id: org/no-cpu\n    category: llm\n    server:\n      runtime: vllm\n      resources: { cpu: null }\n',
          ),
        ),
      ).toMatch(
        /models\.no-cpu\.server\.resources\.cpu: cpu: null removes the cpu category llm sets \(runtimes\.vllm\.categories\.llm\.defaults\.cpu\), but a pod needs a cpu request and limit\. Set a value here \(e\.g\. 4\), or remove the line to keep the category's/,
      ),
  },
  {
    rule: 'null in category defaults (the first layer, nothing to remove) is refused',
    check: () =>
      expect(
        problems(
          modelsYaml(MODELS).replace(
            'kv_cache_gb: 8 } }\n      embed',
            'kv_cache_gb: null } }\n      embed',
          ),
        ),
      ).toMatch(
        /runtimes\.vllm\.categories\.llm\.defaults\.kv_cache_gb: kv_cache_gb: null removes an inherited value, and category defaults are the first layer, with nothing to remove\. Remove the key/,
      ),
  },
  {
    rule: '--explain keeps the history when a later layer sets a removed env var again',
    check: () => {
      const c = buildCatalog(
        fixtureSources({
          models: withModel(
            '  relog:\n    model_id: org/relog\n    category: llm\n    server:\n      runtime: vllm\n      env: { VLLM_LOGGING_LEVEL: null }\n',
          ),
        }),
      );
      const row = explainServer(
        resolveServer(c, 'relog', { env: { VLLM_LOGGING_LEVEL: 'DEBUG' } }),
      ).find(r => r.key === 'env.VLLM_LOGGING_LEVEL')!;
      expect(row).toMatchObject({ value: 'DEBUG', layer: 'override' });
      expect(row.overrode).toEqual([
        expect.objectContaining({ value: 'INFO', layer: 'runtime-env' }),
        expect.objectContaining({
          layer: 'model',
          removed: true,
          source: expect.stringMatching(
            /^models\.yaml:\d+:\d+ models\.relog\.server\.env\.VLLM_LOGGING_LEVEL$/,
          ),
        }),
      ]);
    },
  },
  {
    rule: 'a plumbing key that does not apply is reported: image on a versioned runtime',
    check: () =>
      expect(
        problems(
          modelsYaml(MODELS).replace(
            '  vllm:\n    default_version',
            '  vllm:\n    image: "docker.io/vllm/vllm-openai-cpu:latest"\n    default_version',
          ),
        ),
      ).toMatch(
        /models\.yaml:\d+:\d+: runtimes\.vllm\.image: plumbing key image does not apply to runtime vllm: it has versions:, and each version's image is used/,
      ),
  },
  {
    rule: "a plumbing key that does not apply is reported: an OpenVINO-only key in vLLM's values.yaml",
    check: () => {
      let error: unknown;
      try {
        buildCatalog(
          fixtureSources({
            models: modelsYaml(MODELS),
            values: {
              vllm: 'device: cpu\nkind: LLMInferenceService\nrouting: epp\nruntime_name: x\n',
            },
          }),
        );
      } catch (e) {
        error = e;
      }
      expect((error as CatalogError).problems).toEqual([
        expect.objectContaining({
          file: 'runtimes/vllm/values.yaml',
          line: 4,
          path: 'runtime_name',
          message: expect.stringMatching(
            /^plumbing key runtime_name does not apply to runtime vllm \(LLMInferenceService, vLLM\)/,
          ),
        }),
      ]);
    },
  },
];

describe('resolveServer: flags, names and values as the engines read them', () => {
  it.each(rules)('$rule', ({ check }) => check());
});
