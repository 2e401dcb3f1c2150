import { buildCatalog } from '../catalog/buildCatalog';
import { CatalogError, formatProblem } from '../source/problems';
import { modelsYaml, fixtureSources } from '../testUtils/catalogFixtures';
import { explainServer } from './explainServer';
import { resolveServer } from './resolveServer';

/** vLLM's KV-cache variable, as runtimes/vllm/profile.yaml declares it. */
const KV = 'VLLM_CPU_KVCACHE_SPACE';

/** A models.yaml with one vLLM model of `category`, its server lines, and a runtimes edit. */
const catalogText = (
  category: string,
  server = '',
  runtimes: (t: string) => string = t => t,
) =>
  runtimes(
    modelsYaml(`
  m:
    model_id: org/m
    category: ${category}
    server:
      runtime: vllm
      server_version: "0.19.1"
${server}`),
  );

const build = (text: string) => buildCatalog(fixtureSources({ models: text }));
const problemsOf = (fn: () => unknown): string[] => {
  try {
    fn();
    return [];
  } catch (e) {
    if (e instanceof CatalogError) return e.problems.map(formatProblem);
    return [(e as Error).message];
  }
};
const versionEnv = (t: string) =>
  t.replace(
    '        env:\n          VLLM_USE_V1: "1"\n',
    `        env:\n          VLLM_USE_V1: "1"\n          ${KV}: "4"\n`,
  );

/*
 * Spec runtimes.md, "CPU KV cache": embed and rerank do no autoregressive generation, so they set
 * no kv_cache_gb and the variable is omitted entirely (vLLM's own default). Profile:
 * kv_cache.no_generation: [embed, rerank].
 */
const noGeneration: Array<{ rule: string; text: string; error: RegExp }> = [
  {
    rule: "a version's env delta that sets the variable is refused for an embed model, naming the version layer",
    text: catalogText('embed', '', versionEnv),
    error: new RegExp(
      `models\\.yaml:\\d+:\\d+: runtimes\\.vllm\\.versions\\["0\\.19\\.1"\\]\\.env\\.${KV}: model m is category embed, which does no generation.*set ${KV}: null in models\\.m\\.server\\.env`,
    ),
  },
  {
    rule: "a model's kv_cache_gb on a rerank model is refused, naming the model layer",
    text: catalogText('rerank', '      resources: { kv_cache_gb: 2 }'),
    error:
      /models\.yaml:\d+:\d+: models\.m\.server\.resources\.kv_cache_gb: model m is category rerank, which does no generation.*remove it \(kv_cache_gb\)/,
  },
  {
    rule: "a model's env that sets the variable on an embed model is refused",
    text: catalogText('embed', `      env: { ${KV}: "2" }`),
    error: new RegExp(
      `models\\.m\\.server\\.env\\.${KV}: model m is category embed.*remove it \\(${KV}\\)`,
    ),
  },
];

describe('KV cache of categories that do no generation', () => {
  it.each(noGeneration)('$rule', ({ text, error }) => {
    expect(problemsOf(() => build(text))).toContainEqual(
      expect.stringMatching(error),
    );
  });

  it('the model can opt out of a shared layer with null', () => {
    const c = build(
      versionEnv(catalogText('embed', `      env: { ${KV}: null }`)),
    );
    const s = resolveServer(c, 'm');
    expect(s.env.map(e => e.name)).not.toContain(KV);
    expect(s.resources.kvCacheGb).toBeUndefined();
  });

  it('a request that sets it on an embed model is refused', () => {
    const c = build(catalogText('embed'));
    expect(
      problemsOf(() => resolveServer(c, 'm', { env: { [KV]: '4' } })),
    ).toEqual([
      expect.stringMatching(
        new RegExp(`^<request>: env\\.${KV}: model m is category embed`),
      ),
    ]);
  });
});

describe('kv_cache_gb and the variable are one traced value', () => {
  // The reproducer: resolve qwen2-5-7b-instruct --env VLLM_CPU_KVCACHE_SPACE=4 --explain
  const shipped = buildCatalog(fixtureSources());
  it('a request env sets the KV cache: resources and env show the same value and layer', () => {
    const s = resolveServer(shipped, 'qwen2-5-7b-instruct', {
      env: { [KV]: '4' },
    });
    const rows = explainServer(s);
    const kvRow = rows.find(r => r.key === 'resources.kv_cache_gb')!;
    const envRow = rows.find(r => r.key === `env.${KV}`)!;
    expect([kvRow.value, kvRow.layer]).toEqual(['4', 'override']);
    expect([envRow.value, envRow.layer]).toEqual(['4', 'override']);
    expect(kvRow.overrode).toEqual(envRow.overrode);
    expect(kvRow.overrode.map(o => [o.value, o.layer])).toEqual([
      ['8', 'category'],
    ]);
  });

  it("a model's env sets the variable after the category's kv_cache_gb: resources follow it", () => {
    const c = build(catalogText('llm', `      env: { ${KV}: "6" }`));
    const s = resolveServer(c, 'm');
    expect(s.resources.kvCacheGb?.value).toBe(6);
    expect(s.resources.kvCacheGb?.origin.path).toBe(
      `models.m.server.env.${KV}`,
    );
    expect(s.env.find(e => e.name === KV)?.value).toBe('6');
  });

  it("the model's kv_cache_gb wins over its own env, in both views", () => {
    const c = build(
      catalogText(
        'llm',
        `      env: { ${KV}: "6" }\n      resources: { kv_cache_gb: 4 }`,
      ),
    );
    const s = resolveServer(c, 'm');
    expect(s.resources.kvCacheGb?.value).toBe(4);
    expect(s.env.find(e => e.name === KV)?.value).toBe('4');
    expect(s.resources.kvCacheGb?.origin.path).toBe(
      'models.m.server.resources.kv_cache_gb',
    );
  });
});
