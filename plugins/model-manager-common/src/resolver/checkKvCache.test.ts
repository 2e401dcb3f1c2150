import { buildCatalog } from '../catalog/buildCatalog';
/** vLLM's KV-cache variable, as runtimes/vllm/profile.yaml declares it. */
const KV_CACHE_ENV = 'VLLM_CPU_KVCACHE_SPACE';
import { CatalogError } from '../source/problems';
import { modelsYaml, fixtureSources } from '../testUtils/catalogFixtures';
import { resolveServer } from './resolveServer';

/** A models.yaml with one vLLM llm model (category llm: memory 16Gi, kv_cache_gb 8). */
const withServer = (
  server: string,
  runtimes: (text: string) => string = t => t,
) =>
  runtimes(
    modelsYaml(`
  chat:
    model_id: org/chat
    category: llm
    server:
      runtime: vllm
${server}`),
  );

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
  text: string;
  /** Expected problem (regex), or null when the catalog must build. */
  problem: RegExp | null;
}

// vLLM reads VLLM_CPU_KVCACHE_SPACE with int() (https://github.com/vllm-project/vllm vllm/envs.py:
// "VLLM_CPU_KVCACHE_SPACE": lambda: int(os.getenv("VLLM_CPU_KVCACHE_SPACE", "0")) ...) and
// allocates the whole cache at start (vllm/v1/worker/cpu_worker.py).
const rules: Rule[] = [
  {
    rule: 'kv_cache_gb must be a whole number of GiB on a model',
    text: withServer('      resources: { kv_cache_gb: 0.5 }'),
    problem:
      /models\.yaml:\d+:\d+: models\.chat\.server\.resources\.kv_cache_gb: kv_cache_gb must be a whole number of GiB \(vLLM reads VLLM_CPU_KVCACHE_SPACE as an integer\)/,
  },
  {
    rule: 'kv_cache_gb must be a whole number of GiB in a category',
    text: withServer('', t =>
      t.replace(
        'kv_cache_gb: 8 } }\n      embed',
        'kv_cache_gb: 7.5 } }\n      embed',
      ),
    ),
    problem:
      /runtimes\.vllm\.categories\.llm\.defaults\.kv_cache_gb: kv_cache_gb must be a whole number of GiB/,
  },
  {
    rule: 'an absurd kv_cache_gb (1e+21) is refused',
    text: withServer('      resources: { kv_cache_gb: 1e+21 }'),
    problem:
      /models\.chat\.server\.resources\.kv_cache_gb: kv_cache_gb must be at most 4096 GiB/,
  },
  {
    rule: 'kv_cache_gb: 0 is refused',
    text: withServer('      resources: { kv_cache_gb: 0 }'),
    problem: /kv_cache_gb must be at least 1 GiB/,
  },
  {
    rule: `${KV_CACHE_ENV} set directly in an env layer must be a whole number of GiB too`,
    text: withServer('      env: { VLLM_CPU_KVCACHE_SPACE: "0.5" }'),
    problem:
      /models\.chat\.server\.env\.VLLM_CPU_KVCACHE_SPACE: VLLM_CPU_KVCACHE_SPACE is '0\.5', but it must be a whole number of GiB from 1 to 4096/,
  },
  {
    rule: 'a bad value in an earlier env layer is reported even when a later layer replaces it',
    text: withServer('      env: { VLLM_CPU_KVCACHE_SPACE: "4" }', t =>
      t
        .replace(
          '        env:\n          VLLM_USE_V1: "1"',
          '        env:\n          VLLM_USE_V1: "1"\n          VLLM_CPU_KVCACHE_SPACE: "1e3"',
        )
        .replace(
          '      runtime: vllm\n      env:',
          '      runtime: vllm\n      server_version: "0.19.1"\n      env:',
        ),
    ),
    problem:
      /runtimes\.vllm\.versions\["0\.19\.1"\]\.env\.VLLM_CPU_KVCACHE_SPACE: VLLM_CPU_KVCACHE_SPACE is '1e3'/,
  },
  {
    rule: `${KV_CACHE_ENV} must be a whole number of GiB in a category's env that no model uses`,
    text: withServer('', t =>
      t.replace(
        'vlm:    { defaults: { cpu: 16, memory: "48Gi", kv_cache_gb: 8 } }',
        'vlm:    { defaults: { cpu: 16, memory: "48Gi", kv_cache_gb: 8 }, env: { VLLM_CPU_KVCACHE_SPACE: "4.5" } }',
      ),
    ),
    problem:
      /runtimes\.vllm\.categories\.vlm\.env\.VLLM_CPU_KVCACHE_SPACE: VLLM_CPU_KVCACHE_SPACE is '4\.5', but it must be a whole number of GiB/,
  },
  {
    rule: `${KV_CACHE_ENV} must be a whole number of GiB in a version's env delta that no model pins (a request may select it)`,
    text: withServer('', t =>
      t.replace(
        '        env:\n          VLLM_USE_V1: "1"',
        '        env:\n          VLLM_USE_V1: "1"\n          VLLM_CPU_KVCACHE_SPACE: "4.5"',
      ),
    ),
    problem:
      /runtimes\.vllm\.versions\["0\.19\.1"\]\.env\.VLLM_CPU_KVCACHE_SPACE: VLLM_CPU_KVCACHE_SPACE is '4\.5'/,
  },
  {
    rule: `${KV_CACHE_ENV} must be a whole number of GiB in a model's env even when its kv_cache_gb: null removes it`,
    text: withServer(
      '      env: { VLLM_CPU_KVCACHE_SPACE: "4.5" }\n      resources: { kv_cache_gb: null }',
    ),
    problem:
      /models\.chat\.server\.env\.VLLM_CPU_KVCACHE_SPACE: VLLM_CPU_KVCACHE_SPACE is '4\.5'/,
  },
  {
    rule: 'the KV cache must fit half the memory limit: kv_cache_gb 64 with memory 16Gi is refused',
    text: withServer('      resources: { kv_cache_gb: 64 }'),
    problem:
      /models\.chat\.server\.resources\.kv_cache_gb: a KV cache of 64 GiB \(VLLM_CPU_KVCACHE_SPACE\) does not fit the memory limit 16Gi \(runtimes\.vllm\.categories\.llm\.defaults\.memory\): vLLM allocates the whole KV cache at start, and at least 50% of the memory limit must stay free for the weights and the runtime\. Lower kv_cache_gb to at most 8, or raise memory to at least 128Gi/,
  },
  {
    rule: 'the fit is checked after layering: a model lowering memory below the category KV cache is refused',
    text: withServer('      resources: { memory: 8Gi }'),
    problem:
      /runtimes\.vllm\.categories\.llm\.defaults\.kv_cache_gb: a KV cache of 8 GiB .* does not fit the memory limit 8Gi \(models\.chat\.server\.resources\.memory\).*at most 4/,
  },
  {
    rule: 'the fit is checked after layering: a model raising memory makes room for a larger KV cache',
    text: withServer('      resources: { kv_cache_gb: 64, memory: 128Gi }'),
    problem: null,
  },
  {
    rule: `the fit is checked on what vLLM reads: ${KV_CACHE_ENV} from a model's env counts`,
    text: withServer('      env: { VLLM_CPU_KVCACHE_SPACE: "12" }'),
    problem:
      /models\.chat\.server\.env\.VLLM_CPU_KVCACHE_SPACE: a KV cache of 12 GiB/,
  },
  {
    rule: 'exactly half the memory limit fits (llm defaults: 8 GiB of 16Gi)',
    text: withServer(''),
    problem: null,
  },
];

describe('KV cache: a whole number of GiB that fits the pod', () => {
  it.each(rules)('$rule', ({ text, problem }) => {
    const found = problems(text);
    if (problem === null) expect(found).toEqual([]);
    else expect(found.join('\n')).toMatch(problem);
  });

  it("a shared layer's bad value is listed once, not once for each model that inherits it", () => {
    const text = withServer('', t =>
      t
        .replace(
          'kv_cache_gb: 8 } }\n      embed',
          'kv_cache_gb: 8 }, env: { VLLM_CPU_KVCACHE_SPACE: "4.5" } }\n      embed',
        )
        .replace(
          '  chat:\n',
          '  other:\n    model_id: org/other\n    category: llm\n    server:\n      runtime: vllm\n  chat:\n',
        ),
    );
    expect(problems(text)).toEqual([
      expect.stringMatching(
        /^models\.yaml:\d+:\d+: runtimes\.vllm\.categories\.llm\.env\.VLLM_CPU_KVCACHE_SPACE: VLLM_CPU_KVCACHE_SPACE is '4\.5'/,
      ),
    ]);
  });

  it('a request --env of the KV-cache variable is checked too', () => {
    const catalog = buildCatalog(fixtureSources({ models: withServer('') }));
    expect(() =>
      resolveServer(catalog, 'chat', { env: { [KV_CACHE_ENV]: '64' } }),
    ).toThrow(
      /<request>: env\.VLLM_CPU_KVCACHE_SPACE: a KV cache of 64 GiB .*\. Set VLLM_CPU_KVCACHE_SPACE in the request's env to at most 8, or raise the model's memory in models\.yaml to at least 128Gi$/,
    );
    expect(() =>
      resolveServer(catalog, 'chat', { env: { [KV_CACHE_ENV]: 'lots' } }),
    ).toThrow(/is 'lots', but it must be a whole number/);
  });
});
