import fs from 'node:fs';
import path from 'node:path';
import { load as loadJsYaml } from 'js-yaml';
import { parseAllDocuments } from 'yaml';
import { buildCatalog } from '../catalog/buildCatalog';
import { KUBERNETES_ID_LABEL, MANAGED_BY_LABEL } from '../constants';
import { resolveServer } from '../resolver/resolveServer';
import {
  modelsYaml,
  fixtureSources,
  FIXTURE_CATALOG_DIR,
} from '../testUtils/catalogFixtures';
import {
  isOwnedByModel,
  renderManifests,
  servedModelName,
} from './renderManifests';
import { fillTemplate } from './fillTemplate';
import { parseTemplate } from './parseTemplate';
import { toKubernetesYamlStream } from './toKubernetesYaml';

const catalog = buildCatalog(fixtureSources());
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

  it('OpenVINO -> ClusterServingRuntime and weights claim (shared, create-if-absent), download Job (recreated when its immutable template changes), InferenceService, then its aigateway route objects', () => {
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
      [
        'PersistentVolumeClaim',
        'model-manager-weights',
        'models',
        'create-if-absent',
      ],
      [
        'Job',
        'bge-small-en-v1-5-ov-download',
        'models',
        'recreate-when-immutable',
      ],
      ['InferenceService', 'bge-small-en-v1-5-ov', 'models', 'apply'],
      ['Backend', 'bge-small-en-v1-5-ov', 'models', 'apply'],
      ['AIServiceBackend', 'bge-small-en-v1-5-ov', 'models', 'apply'],
      ['AIGatewayRoute', 'bge-small-en-v1-5-ov', 'models', 'apply'],
    ]);
    expect(objects[3].manifest).toMatchObject({
      spec: {
        predictor: {
          model: {
            modelFormat: { name: 'openvino' },
            runtime: 'openvino-runtime',
          },
        },
      },
    });
    // What an undeploy deletes: the model's own objects, never the shared ones.
    expect(objects.filter(isOwnedByModel).map(o => o.kind)).toEqual([
      'Job',
      'InferenceService',
      'Backend',
      'AIServiceBackend',
      'AIGatewayRoute',
    ]);
  });

  it('the download Job runs ovms --pull, with --weight-format only for a raw Hugging Face repo', () => {
    const pullArgs = (model: string) =>
      (render(model).find(o => o.kind === 'Job')!.manifest as any).spec.template
        .spec.containers[0].args as string[];
    expect(pullArgs('phi-3-5-mini-instruct-int4-ov')).toEqual([
      '--pull',
      '--source_model=microsoft/Phi-3.5-mini-instruct',
      '--model_repository_path=/models/phi-3-5-mini-instruct-int4-ov',
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

  it('every object carries the labels the Kubernetes tab finds it by; shared objects belong to no one model', () => {
    for (const model of Object.keys(catalog.models)) {
      for (const object of render(model)) {
        const labels = (object.manifest as any).metadata.labels;
        expect(labels[MANAGED_BY_LABEL]).toBe('model-manager');
        expect(labels[KUBERNETES_ID_LABEL]).toBe(
          isOwnedByModel(object) ? model : undefined,
        );
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

  it.each(['Models', 'a b', 'team_a', 'ns-', 'ns.sub', 'n'.repeat(64)])(
    'a namespace Kubernetes refuses (%s) is refused before anything is rendered',
    namespace => {
      const server = resolveServer(catalog, 'bge-small-en-v1-5-ov');
      expect(() => renderManifests(catalog, server, { namespace })).toThrow(
        `cannot render model bge-small-en-v1-5-ov: namespace '${namespace}'`,
      );
    },
  );
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

  it("<<: ${map} gives the mapping the map's keys under its own, which win; absent merges nothing", () => {
    const template = parseTemplate(
      't.yaml',
      'metadata:\n  annotations:\n    <<: ${annotations}\n    own: mine\n    k: wins\n',
      ['annotations'],
    );
    expect(
      fillTemplate(template, { annotations: { k: 'v', other: 'o' } }),
    ).toEqual({
      metadata: { annotations: { k: 'wins', other: 'o', own: 'mine' } },
    });
    expect(fillTemplate(template, { annotations: undefined })).toEqual({
      metadata: { annotations: { own: 'mine', k: 'wins' } },
    });
    // Each render its own copy: the context's map is never the output's.
    const annotations = { k: 'v' };
    const out = fillTemplate(template, { annotations }) as any;
    out.metadata.annotations.k = 'changed';
    expect(annotations).toEqual({ k: 'v' });
  });

  it('<<: with anything but one placeholder is refused at its line; a scalar merged is refused at render', () => {
    expect(() =>
      parseTemplate('t.yaml', 'a:\n  <<: x-${annotations}\n', ['annotations']),
    ).toThrow(
      /t\.yaml:2:7: <<: takes one placeholder of a map, whose keys the mapping gets under its own/,
    );
    expect(() =>
      parseTemplate('t.yaml', 'a:\n  <<:\n    k: v\n', ['annotations']),
    ).toThrow(/t\.yaml:3:5: <<: takes one placeholder of a map/);
    const template = parseTemplate('t.yaml', 'a:\n  <<: ${device}\n', [
      'device',
    ]);
    expect(() => fillTemplate(template, { device: 'cpu' })).toThrow(
      't.yaml: <<: ${device} merges a map, but its value is string',
    );
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
    const c = buildCatalog(fixtureSources({ models: text }));
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

const MODELS_YAML = fs.readFileSync(
  path.join(FIXTURE_CATALOG_DIR, 'models.yaml'),
  'utf8',
);
const byKind = (objects: ReturnType<typeof render>, kind: string) =>
  objects.find(o => o.kind === kind)!.manifest as any;
const OPENVINO_MODELS = Object.keys(catalog.models).filter(
  m => catalog.models[m].config.server.runtime === 'openvino',
);
/** A catalog whose runtimes.openvino sets the given plumbing keys in models.yaml (which wins over values.yaml). */
const withOpenvinoPlumbing = (keys: string) =>
  buildCatalog(
    fixtureSources({
      models: MODELS_YAML.replace(
        /\n {2}openvino:\n/,
        `\n  openvino:\n${keys.replace(/^/gm, '    ')}\n`,
      ),
    }),
  );

/** runtimes.vllm with routing: aigateway set in models.yaml (it wins over values.yaml). */
const vllmOnGateway = buildCatalog(
  fixtureSources({
    models: MODELS_YAML.replace(
      /\n {2}vllm:\n/,
      '\n  vllm:\n    routing: aigateway\n',
    ),
  }),
);

describe('renderManifests: the AI gateway reaches the Service KServe puts in front of the pods', () => {
  const endpointOf = (objects: ReturnType<typeof render>) =>
    byKind(objects, 'Backend').spec.endpoints;

  it('OpenVINO: the InferenceService predictor Service, <name>-predictor, port 80', () => {
    expect(endpointOf(render('bge-small-en-v1-5-ov'))).toEqual([
      {
        fqdn: {
          hostname: 'bge-small-en-v1-5-ov-predictor.models.svc.cluster.local',
          port: 80,
        },
      },
    ]);
  });

  it("OpenVINO: the InferenceService asks for KServe's Standard mode, which serves that Service, whatever the cluster's default", () => {
    const isvc = byKind(render('bge-small-en-v1-5-ov'), 'InferenceService');
    // The model's own annotations are kept beside it.
    expect(isvc.metadata.annotations).toEqual({
      'model-manager.io/model-id': 'OpenVINO/bge-small-en-v1.5-int8-ov',
      'model-manager.io/routing': 'aigateway',
      'model-manager.io/device': 'cpu',
      'serving.kserve.io/deploymentMode': 'Standard',
    });
    // Only the InferenceService: the claim, Job and routes carry the model's annotations alone.
    for (const o of render('bge-small-en-v1-5-ov').filter(
      x => x.kind !== 'InferenceService',
    ))
      expect(
        (o.manifest as any).metadata.annotations?.[
          'serving.kserve.io/deploymentMode'
        ],
      ).toBeUndefined();
    // KServe before v0.16 knows the mode as RawDeployment (plumbing deployment_mode).
    const older = withOpenvinoPlumbing('deployment_mode: RawDeployment');
    expect(
      byKind(
        renderManifests(
          older,
          resolveServer(older, 'bge-small-en-v1-5-ov', {}),
          { namespace: 'models' },
        ),
        'InferenceService',
      ).metadata.annotations['serving.kserve.io/deploymentMode'],
    ).toBe('RawDeployment');
    expect(() => withOpenvinoPlumbing('deployment_mode: Serverless')).toThrow(
      /deployment_mode.*Standard, RawDeployment/,
    );
  });

  it('OpenVINO on aigateway: KServe makes no route of its own (visibility cluster-local); on epp it does', () => {
    const isvc = byKind(render('bge-small-en-v1-5-ov'), 'InferenceService');
    expect(isvc.metadata.labels['networking.kserve.io/visibility']).toBe(
      'cluster-local',
    );
    // The model's own labels are kept beside it (the fleet finds objects by them).
    expect(isvc.metadata.labels).toMatchObject({
      'app.kubernetes.io/managed-by': 'model-manager',
    });
    const onEpp = withOpenvinoPlumbing('routing: epp');
    const objects = renderManifests(
      onEpp,
      resolveServer(onEpp, 'bge-small-en-v1-5-ov', {}),
      { namespace: 'models' },
    );
    expect(
      Object.keys(byKind(objects, 'InferenceService').metadata.labels),
    ).not.toContain('networking.kserve.io/visibility');
  });

  it("vLLM: the LLMInferenceService's workload Service, <name>-kserve-workload-svc, port 8000 (not an InferenceService's predictor)", () => {
    const objects = renderManifests(
      vllmOnGateway,
      resolveServer(vllmOnGateway, 'qwen2-5-7b-instruct', {}),
      { namespace: 'models' },
    );
    expect(objects.map(o => o.kind)).toEqual([
      'LLMInferenceService',
      'Backend',
      'AIServiceBackend',
      'AIGatewayRoute',
    ]);
    expect(endpointOf(objects)).toEqual([
      {
        fqdn: {
          hostname:
            'qwen2-5-7b-instruct-kserve-workload-svc.models.svc.cluster.local',
          port: 8000,
        },
      },
    ]);
  });
});

describe("renderManifests: the LLMInferenceService's managed router follows routing (profile routing_values)", () => {
  const serverOf = (objects: ReturnType<typeof render>) =>
    byKind(objects, 'LLMInferenceService');

  it('epp: KServe manages the scheduler, the HTTPRoute and the Gateway (each an empty object)', () => {
    expect(serverOf(render('qwen2-5-7b-instruct')).spec.router).toEqual({
      scheduler: {},
      route: {},
      gateway: {},
    });
  });

  it('aigateway: no router block, so KServe makes no scheduler or HTTPRoute and waits on no Gateway of its own', () => {
    const spec = serverOf(
      renderManifests(
        vllmOnGateway,
        resolveServer(vllmOnGateway, 'qwen2-5-7b-instruct', {}),
        { namespace: 'models' },
      ),
    ).spec;
    expect(spec).not.toHaveProperty('router');
    expect(Object.keys(spec)).toEqual(['model', 'replicas', 'template']);
  });

  it('each render has its own copy: changing one never changes the next', () => {
    const first = serverOf(render('qwen2-5-7b-instruct'));
    first.spec.router.scheduler.changed = true;
    expect(
      serverOf(render('qwen2-5-7b-instruct')).spec.router.scheduler,
    ).toEqual({});
  });
});

describe('renderManifests: weights storage (the namespace PersistentVolumeClaim)', () => {
  it('defaults: model-manager-weights, 100Gi, ReadWriteOnce, the cluster default StorageClass', () => {
    const claim = byKind(
      render('bge-small-en-v1-5-ov'),
      'PersistentVolumeClaim',
    );
    expect(claim).toEqual({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: 'model-manager-weights',
        namespace: 'models',
        labels: { [MANAGED_BY_LABEL]: 'model-manager' },
      },
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '100Gi' } },
      },
    });
  });

  it('the same defaults when runtimes/openvino/values.yaml leaves the keys out', () => {
    const values = fs
      .readFileSync(
        path.join(FIXTURE_CATALOG_DIR, 'runtimes/openvino/values.yaml'),
        'utf8',
      )
      .replace(/^(weights_|gateway_).*$/gm, '');
    const c = buildCatalog(fixtureSources({ values: { openvino: values } }));
    const objects = renderManifests(
      c,
      resolveServer(c, 'bge-small-en-v1-5-ov'),
      { namespace: 'models' },
    );
    expect(byKind(objects, 'PersistentVolumeClaim').metadata.name).toBe(
      'model-manager-weights',
    );
    expect(byKind(objects, 'PersistentVolumeClaim').spec).toEqual({
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '100Gi' } },
    });
    expect(byKind(objects, 'AIGatewayRoute').spec.parentRefs[0]).toMatchObject({
      name: 'envoy-ai-gateway-basic',
      namespace: 'default',
    });
  });

  it('name, size, access mode and storage class come from plumbing, and every mount uses that claim', () => {
    const c = withOpenvinoPlumbing(
      'weights_pvc: ov-weights\nweights_storage: 1Ti\nweights_access_mode: ReadWriteMany\nweights_storage_class: fast-ssd',
    );
    const objects = renderManifests(
      c,
      resolveServer(c, 'bge-small-en-v1-5-ov'),
      { namespace: 'ns1' },
    );
    const claim = byKind(objects, 'PersistentVolumeClaim');
    expect(claim.metadata).toMatchObject({
      name: 'ov-weights',
      namespace: 'ns1',
    });
    expect(claim.spec).toEqual({
      accessModes: ['ReadWriteMany'],
      storageClassName: 'fast-ssd',
      resources: { requests: { storage: '1Ti' } },
    });
    expect(byKind(objects, 'Job').spec.template.spec.volumes).toEqual([
      { name: 'weights', persistentVolumeClaim: { claimName: 'ov-weights' } },
    ]);
    const predictor = byKind(objects, 'InferenceService').spec.predictor;
    expect(predictor.volumes).toEqual([
      {
        name: 'weights',
        persistentVolumeClaim: { claimName: 'ov-weights', readOnly: true },
      },
    ]);
    expect(predictor.model.storageUri).toMatch(/^pvc:\/\/ov-weights\//);
  });

  it.each([
    {
      rule: 'weights_storage must be a quantity',
      keys: 'weights_storage: lots',
      message: 'weights_storage must be a Kubernetes quantity such as 100Gi',
    },
    {
      rule: 'weights_access_mode must be a mode both the Job and the predictor can mount',
      keys: 'weights_access_mode: ReadOnlyMany',
      message:
        'weights_access_mode must be one of ReadWriteOnce, ReadWriteMany, ReadWriteOncePod',
    },
    {
      rule: 'weights_pvc must be a DNS label',
      keys: 'weights_pvc: Weights_PVC',
      message: 'weights_pvc must be a DNS-1123 label',
    },
    {
      rule: 'served_model_name names a field',
      keys: 'served_model_name: alias',
      message: 'served_model_name must be one of model_name',
    },
    {
      rule: "OVMS serves under the model's key only (the shared runtime's --model_name={{.Name}}): served_model_name: model_id is refused",
      keys: 'served_model_name: model_id',
      message: 'served_model_name must be one of model_name',
    },
    {
      rule: 'routing must be a known one',
      keys: 'routing: istio',
      message:
        "routing 'istio' is not known; set routing to one of aigateway, epp",
    },
  ])('$rule', ({ keys, message }) => {
    let error: unknown;
    try {
      withOpenvinoPlumbing(keys);
    } catch (e) {
      error = e;
    }
    const [problem] = (
      error as {
        problems: Array<{
          file: string;
          line?: number;
          path: string;
          message: string;
        }>;
      }
    ).problems;
    expect(problem).toMatchObject({
      file: 'models.yaml',
      line: expect.any(Number),
      path: `runtimes.openvino.${keys.split(':')[0]}`,
    });
    expect(problem.message).toContain(message);
  });
});

describe('renderManifests: where the weights land (storageUri = the directory ovms --pull writes)', () => {
  // ovms --pull writes a model to <--model_repository_path>/<--source_model> for IR (git clone) and
  // converted (optimum-cli) repos alike: openvinotoolkit/model_server src/pull_module/model_downloader.cpp.
  const pulledTo = (objects: ReturnType<typeof render>) => {
    const job = byKind(objects, 'Job').spec.template.spec;
    const container = job.containers[0];
    const arg = (name: string) =>
      (container.args as string[])
        .find(a => a.startsWith(`--${name}=`))!
        .split('=')[1];
    const mount = container.volumeMounts.find((m: any) => m.name === 'weights')
      .mountPath as string;
    const claim = job.volumes.find((v: any) => v.name === 'weights')
      .persistentVolumeClaim.claimName as string;
    const repository = arg('model_repository_path');
    expect(repository.startsWith(`${mount}/`)).toBe(true);
    return `pvc://${claim}/${repository.slice(mount.length + 1)}/${arg(
      'source_model',
    )}`;
  };

  it.each([
    {
      model: 'bge-small-en-v1-5-ov',
      kind: 'an OpenVINO/* IR repo',
      uri: 'pvc://model-manager-weights/bge-small-en-v1-5-ov/OpenVINO/bge-small-en-v1.5-int8-ov',
    },
    {
      model: 'bge-reranker-base-ov',
      kind: 'an OpenVINO/* IR repo',
      uri: 'pvc://model-manager-weights/bge-reranker-base-ov/OpenVINO/bge-reranker-base-int8-ov',
    },
    {
      model: 'phi-3-5-mini-instruct-int4-ov',
      kind: 'a raw repo converted to INT4',
      uri: 'pvc://model-manager-weights/phi-3-5-mini-instruct-int4-ov/microsoft/Phi-3.5-mini-instruct',
    },
  ])('$model ($kind): $uri', ({ model, uri }) => {
    const objects = render(model);
    expect(
      byKind(objects, 'InferenceService').spec.predictor.model.storageUri,
    ).toBe(uri);
    expect(pulledTo(objects)).toBe(uri);
  });

  it('every OpenVINO model reads exactly the directory its Job writes', () => {
    for (const model of OPENVINO_MODELS) {
      const objects = render(model);
      expect(
        byKind(objects, 'InferenceService').spec.predictor.model.storageUri,
      ).toBe(pulledTo(objects));
    }
  });

  it('two models of one raw repo with different weight_format get different directories', () => {
    const c = buildCatalog(
      fixtureSources({
        models: modelsYaml(`
  phi-int4:
    model_id: microsoft/Phi-3.5-mini-instruct
    category: llm
    weight_format: int4
    server: { runtime: openvino }
  phi-int8:
    model_id: microsoft/Phi-3.5-mini-instruct
    category: llm
    weight_format: int8
    server: { runtime: openvino }
`),
      }),
    );
    const uri = (m: string) =>
      byKind(
        renderManifests(c, resolveServer(c, m), { namespace: 'models' }),
        'InferenceService',
      ).spec.predictor.model.storageUri;
    expect(uri('phi-int4')).not.toBe(uri('phi-int8'));
  });

  it('startup is gated on the weights: an init container waits for graph.pbtxt (written last by ovms --pull) in that directory', () => {
    const objects = render('phi-3-5-mini-instruct-int4-ov');
    const predictor = byKind(objects, 'InferenceService').spec.predictor;
    const [wait] = predictor.initContainers;
    const env = Object.fromEntries(wait.env.map((e: any) => [e.name, e.value]));
    const storagePath = predictor.model.storageUri.replace(
      /^pvc:\/\/[^/]+\//,
      '',
    );
    expect(env.WEIGHTS_PATH).toBe(storagePath);
    expect(wait.args[0]).toContain(
      'until [ -f "/weights/$WEIGHTS_PATH/graph.pbtxt" ]',
    );
    // The whole claim, not a subPath: kubelet would create a missing subPath directory, and
    // ovms --pull skips a directory that exists.
    expect(wait.volumeMounts).toEqual([
      { name: 'weights', mountPath: '/weights', readOnly: true },
    ]);
    expect(predictor.volumes[0].persistentVolumeClaim.claimName).toBe(
      pulledTo(objects).split('/')[2],
    );
  });
});

describe('renderManifests: routes (served name = the `model` clients send)', () => {
  it.each([
    {
      model: 'bge-small-en-v1-5-ov',
      runtime: 'openvino',
      served: 'bge-small-en-v1-5-ov',
      why: 'OVMS serves --model_name={{.Name}}: the model key',
    },
    {
      model: 'phi-3-5-mini-instruct-int4-ov',
      runtime: 'openvino',
      served: 'phi-3-5-mini-instruct-int4-ov',
      why: 'OVMS serves --model_name={{.Name}}: the model key',
    },
    {
      model: 'qwen2-5-7b-instruct',
      runtime: 'vllm',
      served: 'Qwen/Qwen2.5-7B-Instruct',
      why: 'vLLM serves --served-model-name = spec.model.name: the model_id',
    },
  ])('$model ($runtime): $served — $why', ({ model, served }) => {
    expect(servedModelName(resolveServer(catalog, model))).toBe(served);
  });

  it('aigateway: the AIGatewayRoute matches x-ai-eg-model = the served name and sends it to the AIServiceBackend', () => {
    for (const model of OPENVINO_MODELS) {
      const objects = render(model);
      const route = byKind(objects, 'AIGatewayRoute');
      expect(route.spec.rules).toEqual([
        {
          matches: [
            {
              headers: [
                {
                  type: 'Exact',
                  name: 'x-ai-eg-model',
                  value: servedModelName(resolveServer(catalog, model)),
                },
              ],
            },
          ],
          backendRefs: [
            { name: byKind(objects, 'AIServiceBackend').metadata.name },
          ],
        },
      ]);
      // The served name is the name OVMS runs the model under (the ClusterServingRuntime's
      // --model_name={{.Name}} is the InferenceService's name).
      expect(route.spec.rules[0].matches[0].headers[0].value).toBe(
        byKind(objects, 'InferenceService').metadata.name,
      );
    }
  });

  it('aigateway: /v1 reaches OVMS as /v3 (OpenAI schema prefix), through a Backend at the predictor Service, port 80', () => {
    const objects = render('bge-reranker-base-ov');
    const aiBackend = byKind(objects, 'AIServiceBackend');
    const backend = byKind(objects, 'Backend');
    expect(aiBackend.spec).toEqual({
      schema: { name: 'OpenAI', prefix: '/v3' },
      backendRef: {
        name: backend.metadata.name,
        kind: 'Backend',
        group: 'gateway.envoyproxy.io',
      },
    });
    expect(backend.spec).toEqual({
      endpoints: [
        {
          fqdn: {
            hostname: 'bge-reranker-base-ov-predictor.models.svc.cluster.local',
            port: 80,
          },
        },
      ],
    });
  });

  it('aigateway: the Gateway comes from plumbing (default: the upstream basic example)', () => {
    expect(
      byKind(render('bge-small-en-v1-5-ov'), 'AIGatewayRoute').spec.parentRefs,
    ).toEqual([
      {
        name: 'envoy-ai-gateway-basic',
        namespace: 'default',
        kind: 'Gateway',
        group: 'gateway.networking.k8s.io',
      },
    ]);
    const c = withOpenvinoPlumbing(
      'gateway_name: ai-gateway\ngateway_namespace: envoy-gateway-system',
    );
    const route = byKind(
      renderManifests(c, resolveServer(c, 'bge-small-en-v1-5-ov'), {
        namespace: 'models',
      }),
      'AIGatewayRoute',
    );
    expect(route.spec.parentRefs[0]).toMatchObject({
      name: 'ai-gateway',
      namespace: 'envoy-gateway-system',
    });
  });

  it('epp: no route objects; the LLMInferenceService asks KServe for a managed scheduler, route and gateway, serving the served name', () => {
    const objects = render('qwen2-5-7b-instruct');
    expect(objects.map(o => o.kind)).toEqual(['LLMInferenceService']);
    const spec = objects[0].manifest.spec as any;
    expect(spec.router).toEqual({ scheduler: {}, route: {}, gateway: {} });
    expect(spec.model.name).toBe(
      servedModelName(resolveServer(catalog, 'qwen2-5-7b-instruct')),
    );
  });

  it('the served name is one piece of data: switching it in plumbing changes the route and what vLLM serves', () => {
    const c = buildCatalog(
      fixtureSources({
        models: MODELS_YAML.replace(
          /\n {2}vllm:\n/,
          '\n  vllm:\n    routing: aigateway\n    served_model_name: model_name\n',
        ),
      }),
    );
    const objects = renderManifests(
      c,
      resolveServer(c, 'qwen2-5-7b-instruct'),
      { namespace: 'models' },
    );
    expect(
      byKind(objects, 'AIGatewayRoute').spec.rules[0].matches[0].headers[0]
        .value,
    ).toBe('qwen2-5-7b-instruct');
    expect(byKind(objects, 'LLMInferenceService').spec.model.name).toBe(
      'qwen2-5-7b-instruct',
    );
  });
});
