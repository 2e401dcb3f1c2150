import fs from 'node:fs';
import path from 'node:path';
import { buildCatalog } from '../catalog/buildCatalog';
import { renderManifests } from '../renderer/renderManifests';
import { resolveServer } from '../resolver/resolveServer';
import { CatalogError } from '../source/problems';
import { dirSources, REPO_ROOT } from '../testUtils/catalogFixtures';

// examples/extra-runtime adds a third engine as data only (its runtimes/ folder: profile.yaml,
// values.yaml, a ClusterServingRuntime and an InferenceService template). This test names the
// engine only through what it reads from there, so it does not break its own grep below.
const EXAMPLE = 'examples/extra-runtime';
const catalog = buildCatalog(dirSources(EXAMPLE));
const [runtimeName] = Object.keys(catalog.runtimes);
const runtime = catalog.runtimes[runtimeName];
const models = Object.keys(catalog.models);
const llm = models.find(m => catalog.models[m].config.category === 'llm')!;

/** The example's models.yaml with `change` applied, built; the problems it reports. */
function problems(change: (text: string) => string): string[] {
  const sources = dirSources(EXAMPLE);
  const text = change(sources.models.text);
  if (text === sources.models.text) throw new Error('test setup: no change');
  try {
    buildCatalog({ ...sources, models: { ...sources.models, text } });
  } catch (e) {
    if (!(e instanceof CatalogError)) throw e;
    return e.problems.map(p => `${p.file}:${p.line}:${p.col}: ${p.message}`);
  }
  return [];
}

describe('a third engine added as data only (examples/extra-runtime)', () => {
  it('validates: one runtime, its models resolve', () => {
    expect(Object.keys(catalog.runtimes)).toHaveLength(1);
    expect(models.length).toBeGreaterThanOrEqual(2);
    expect(runtime.profile.file).toBe(`runtimes/${runtimeName}/profile.yaml`);
    expect(runtime.versioned).toBe(false);
  });

  it('renders what its profile lists, in order, with the kind taken from its template', () => {
    for (const model of models) {
      const objects = renderManifests(catalog, resolveServer(catalog, model), {
        namespace: 'models',
      });
      expect(objects.map(o => `${o.kind}:${o.applyPolicy}`)).toEqual([
        'ClusterServingRuntime:create-if-absent',
        'InferenceService:apply',
        'Backend:apply',
        'AIServiceBackend:apply',
        'AIGatewayRoute:apply',
      ]);
      expect(runtime.config.kind).toBe('InferenceService');
      const isvc = objects[1].manifest as any;
      expect(isvc.spec.predictor.model.runtime).toBe(
        runtime.config.runtime_name,
      );
      expect(isvc.spec.predictor.model.runtime).toBe(
        (objects[0].manifest as any).metadata.name,
      );
      // No weights Job, no KV-cache variable: the profile declares neither.
      expect(
        (isvc.spec.predictor.model.env ?? []).map((e: any) => e.name),
      ).not.toContain('VLLM_CPU_KVCACHE_SPACE');
      // The gateway routes on the served name, the model's name (plumbing served_model_name).
      expect(
        (objects[4].manifest as any).spec.rules[0].matches[0].headers[0].value,
      ).toBe(model);
    }
  });

  it.each([
    {
      rule: 'kv_cache_gb: the profile declares no KV-cache variable',
      change: (t: string) =>
        t.replace(
          /(category: llm\n(?:.*\n)*? {4}server:\n)/,
          '$1      resources: { kv_cache_gb: 2 }\n',
        ),
      expected:
        /kv_cache_gb sizes the engine's KV cache; runtime \S+ \(InferenceService, .*\) declares no KV-cache variable in its engine profile/,
    },
    {
      rule: 'weight_format: the profile has no weights: (no conversion)',
      change: (t: string) =>
        t.replace(
          'category: llm\n',
          'category: llm\n    weight_format: int4\n',
        ),
      expected:
        /weight_format is a conversion knob for an engine that converts weights; runtime \S+ .* does not convert weights/,
    },
    {
      rule: "an args item with a value: the engine's parser takes the value from the next token",
      change: (t: string) =>
        t.replace(
          /(category: llm\n(?:.*\n)*? {4}server:\n)/,
          '$1      args: ["--ctx-size=8192"]\n',
        ),
      expected:
        /'--ctx-size=8192' is a flag with a value, but .* says flag_equals_value: false.*env/,
    },
  ])(
    'refuses a feature its engine does not declare: $rule',
    ({ change, expected }) => {
      const found = problems(change);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/^models\.yaml:\d+:\d+: /);
      expect(found[0]).toMatch(expected);
    },
  );

  it('a bare flag is fine', () => {
    expect(
      problems(t =>
        t.replace(
          /(category: llm\n(?:.*\n)*? {4}server:\n)/,
          '$1      args: ["--no-warmup"]\n',
        ),
      ),
    ).toEqual([]);
    expect(resolveServer(catalog, llm).args).toEqual([]);
  });

  it("the engine's name appears nowhere in plugins/*/src: it is data only", () => {
    const image = String(runtime.config.image).replace(/:[^/]*$/, '');
    const terms = [
      runtime.profile.engine.split(' ')[0],
      runtimeName,
      String(runtime.config.runtime_name),
      String(runtime.config.format),
      image,
    ];
    expect(terms.every(t => t.length >= 4)).toBe(true);
    const pluginsDir = path.join(REPO_ROOT, 'plugins');
    const hits: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(p);
        // Code only: the test catalog (testUtils/catalog) is data, as runtimes/ is.
        else if (/\.(ts|tsx|js)$/.test(entry.name)) {
          const text = fs.readFileSync(p, 'utf8').toLowerCase();
          for (const term of terms)
            if (text.includes(term.toLowerCase()))
              hits.push(`${path.relative(REPO_ROOT, p)}: ${term}`);
        }
      }
    };
    for (const plugin of fs.readdirSync(pluginsDir)) {
      const src = path.join(pluginsDir, plugin, 'src');
      if (fs.existsSync(src)) walk(src);
    }
    expect(hits).toEqual([]);
  });
});
