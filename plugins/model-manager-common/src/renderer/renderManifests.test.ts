import fs from 'node:fs';
import path from 'node:path';
import { load as loadJsYaml } from 'js-yaml';
import { parseAllDocuments } from 'yaml';
import { buildCatalog } from '../catalog/buildCatalog';
import { KUBERNETES_ID_LABEL, MANAGED_BY_LABEL } from '../constants';
import { resolveServer } from '../resolver/resolveServer';
import { modelsYaml, repoSources } from '../__testUtils__/fixtures';
import { renderManifests } from './renderManifests';
import { fillTemplate } from './fillTemplate';
import { parseTemplate } from './parseTemplate';
import { toKubernetesYamlStream } from './toKubernetesYaml';

const catalog = buildCatalog(repoSources());
const FIXTURES = path.join(__dirname, '__fixtures__');
const render = (model: string, overrides = {}) =>
  renderManifests(catalog, resolveServer(catalog, model, overrides), {
    namespace: 'models',
  });
const toYaml = (objects: ReturnType<typeof render>) =>
  toKubernetesYamlStream(objects.map(o => o.manifest));

describe('renderManifests: golden manifests of every example model', () => {
  // Update on purpose with UPDATE_GOLDEN=1, then review the diff.
  it.each(Object.keys(catalog.models))('%s', model => {
    const file = path.join(FIXTURES, `${model}.yaml`);
    const actual = toYaml(render(model));
    if (process.env.UPDATE_GOLDEN === '1') fs.writeFileSync(file, actual);
    expect(actual).toBe(fs.readFileSync(file, 'utf8'));
  });
});

describe('renderManifests: YAML output every Kubernetes client reads the same way', () => {
  // kubectl (go-yaml v2) and PyYAML read YAML 1.1; the yaml package and go-yaml v3 read 1.2.
  const readers: Array<[string, (text: string) => unknown[]]> = [
    [
      'YAML 1.1',
      text => parseAllDocuments(text, { version: '1.1' }).map(d => d.toJS()),
    ],
    ['YAML 1.2', text => parseAllDocuments(text).map(d => d.toJS())],
    ['js-yaml', text => text.split(/^---\n/m).map(d => loadJsYaml(d))],
  ];
  const tricky = {
    YES: 'yes',
    OFF: 'off',
    Y: 'y',
    THOUSAND: '1_000',
    BINARY: '0b11',
    SEXAGESIMAL: '1:20',
    DATE: '2001-12-14',
    SEP: 'a\u2028b',
    NEL: 'a\u0085b',
    DEL: 'a\u007fb',
  };
  const cases = [
    ...Object.keys(catalog.models).map(model => ({
      rule: `every value of ${model} reads back identically`,
      model,
      overrides: {},
    })),
    {
      rule: 'env values and args that YAML 1.1 reads as booleans, numbers or line breaks read back identically',
      model: 'qwen2-5-7b-instruct',
      overrides: {
        env: tricky,
        args: Object.values(tricky)
          .map((v, n) => `--x-${n}=${v}`)
          .concat(['--y=on']),
      },
    },
  ];
  it.each(cases)('$rule', ({ model, overrides }) => {
    const objects = render(model, overrides);
    const text = toYaml(objects);
    for (const [reader, read] of readers) {
      expect({ reader, docs: read(text) }).toEqual({
        reader,
        docs: objects.map(o => o.manifest),
      });
    }
  });
});

describe('renderManifests: which kind of Kubernetes object', () => {
  it("the runtime's kind decides: vLLM -> one LLMInferenceService", () => {
    const objects = render('qwen2-5-7b-instruct');
    expect(objects.map(o => [o.kind, o.name, o.applyPolicy])).toEqual([
      ['LLMInferenceService', 'qwen2-5-7b-instruct', 'apply'],
    ]);
    // routing epp: the KServe-managed scheduler.
    expect(objects[0].manifest).toMatchObject({
      apiVersion: 'serving.kserve.io/v1alpha2',
      spec: { router: { scheduler: {}, route: {}, gateway: {} } },
    });
  });

  it('OpenVINO -> ClusterServingRuntime (applied on first deploy), download Job, then InferenceService', () => {
    const objects = render('bge-small-en-v1-5-ov');
    expect(
      objects.map(o => [o.kind, o.name, o.namespace, o.applyPolicy]),
    ).toEqual([
      [
        'ClusterServingRuntime',
        'openvino-runtime',
        undefined,
        'create-if-absent',
      ],
      ['Job', 'bge-small-en-v1-5-ov-download', 'models', 'apply'],
      ['InferenceService', 'bge-small-en-v1-5-ov', 'models', 'apply'],
    ]);
    expect(objects[2].manifest).toMatchObject({
      spec: {
        predictor: {
          model: {
            modelFormat: { name: 'openvino' },
            runtime: 'openvino-runtime',
          },
        },
      },
    });
  });

  it('the download Job runs ovms --pull, with --weight-format only for a raw Hugging Face repo', () => {
    const pullArgs = (model: string) =>
      (render(model)[1].manifest as any).spec.template.spec.containers[0]
        .args as string[];
    expect(pullArgs('phi-3-5-mini-instruct-int4-ov')).toEqual([
      '--pull',
      '--source_model=microsoft/Phi-3.5-mini-instruct',
      '--model_repository_path=/models',
      '--model_name=phi-3-5-mini-instruct-int4-ov',
      '--task=text_generation',
      '--target_device=CPU',
      '--weight-format=int4',
    ]);
    expect(
      pullArgs('bge-small-en-v1-5-ov').some(a =>
        a.startsWith('--weight-format'),
      ),
    ).toBe(false);
    expect(pullArgs('bge-reranker-base-ov')).toContain('--task=rerank');
  });

  it('every object carries the labels the Kubernetes tab finds it by', () => {
    for (const model of Object.keys(catalog.models)) {
      for (const object of render(model)) {
        const labels = (object.manifest as any).metadata.labels;
        expect(labels[MANAGED_BY_LABEL]).toBe('model-manager');
        if (object.kind !== 'ClusterServingRuntime')
          expect(labels[KUBERNETES_ID_LABEL]).toBe(model);
      }
    }
  });

  it('VLLM_CPU_KVCACHE_SPACE reaches the pod for llm and is absent for embed', () => {
    const env = (model: string) =>
      (render(model)[0].manifest as any).spec.template.containers[0].env ?? [];
    expect(env('qwen2-5-7b-instruct')).toContainEqual({
      name: 'VLLM_CPU_KVCACHE_SPACE',
      value: '8',
    });
    expect(env('bge-m3').map((e: any) => e.name)).not.toContain(
      'VLLM_CPU_KVCACHE_SPACE',
    );
  });

  it('output is deterministic', () => {
    expect(toYaml(render('llama-3-1-8b-instruct'))).toBe(
      toYaml(render('llama-3-1-8b-instruct')),
    );
  });
});

describe('renderManifests: substitution is structural', () => {
  const hostile = [
    'x\n  injected: true',
    'a: b',
    '{"$ne": 1}',
    '- item',
    '"quoted"',
    "'; rm -rf / #",
    '${model.name}',
    '&anchor *alias',
    '--- !!python/object',
  ];
  it.each(hostile)(
    'a value %j stays one string and adds no structure',
    value => {
      const objects = render('qwen2-5-7b-instruct', {
        env: { HOSTILE: value.replace(/\n/g, ' ') },
        args: [`--x=${value.replace(/\n/g, ' ')}`],
      });
      const text = toYaml(objects);
      const [doc] = parseAllDocuments(text);
      const container = (doc.toJS() as any).spec.template.containers[0];
      expect(container.env).toContainEqual({
        name: 'HOSTILE',
        value: value.replace(/\n/g, ' '),
      });
      expect(container.args).toContain(`--x=${value.replace(/\n/g, ' ')}`);
      expect(Object.keys((doc.toJS() as any).spec)).toEqual([
        'model',
        'replicas',
        'router',
        'template',
      ]);
    },
  );

  it('a value with a newline never reaches the renderer', () => {
    expect(() =>
      render('qwen2-5-7b-instruct', { env: { A: 'x\ninjected: true' } }),
    ).toThrow(/single line/);
  });

  it('a placeholder alone takes the value with its type; undefined removes the key', () => {
    const template = parseTemplate(
      't.yaml',
      'a: ${labels}\nb: ${args}\nc: x-${model.name}\nd:\n  - ${env}\n  - keep\n',
      ['labels', 'args', 'model.name', 'env'],
    );
    expect(
      fillTemplate(template, {
        labels: { k: 'v' },
        args: undefined,
        'model.name': 'm',
        env: undefined,
      }),
    ).toEqual({ a: { k: 'v' }, c: 'x-m', d: ['keep'] });
  });

  it('a map used inside a string is refused with the template file', () => {
    const template = parseTemplate('t.yaml', 'a: x-${labels}\n', ['labels']);
    expect(() => fillTemplate(template, { labels: { k: 'v' } })).toThrow(
      't.yaml: ${labels} is used inside a string but its value is object; use it as a whole value instead',
    );
  });
});

describe('renderManifests: models of a changed catalog', () => {
  it('a per-model image and resources reach the manifest', () => {
    const text = modelsYaml(`
  custom:
    model_id: org/custom
    category: llm
    server:
      runtime: vllm
      image: registry.example.com/vllm:1
      resources: { cpu: "500m", memory: 1Gi, kv_cache_gb: null }
`);
    const c = buildCatalog(repoSources({ models: text }));
    const [object] = renderManifests(c, resolveServer(c, 'custom'), {
      namespace: 'ns',
    });
    expect((object.manifest as any).spec.template.containers[0]).toMatchObject({
      image: 'registry.example.com/vllm:1',
      resources: {
        limits: { cpu: '500m', memory: '1Gi' },
        requests: { cpu: '500m', memory: '1Gi' },
      },
    });
  });
});
