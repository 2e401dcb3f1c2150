import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DefaultNamespaceEntityPolicy,
  EntityPolicies,
  FieldFormatEntityPolicy,
  NoForeignRootFieldsEntityPolicy,
  SchemaValidEntityPolicy,
  apiEntityV1alpha1Validator,
  componentEntityV1alpha1Validator,
  resourceEntityV1alpha1Validator,
  stringifyEntityRef,
  type Entity,
} from '@backstage/catalog-model';
import type { Catalog } from '@model-manager/plugin-model-manager-common';
import { loadCatalog } from '@model-manager/plugin-model-manager-node';
import { buildEntities, toTag } from './entities';
import type { EntityOptions } from './types';
import { FIXTURE_CATALOG_DIR } from '@model-manager/plugin-model-manager-common/testUtils';

const MODELS_FILE = path.join(FIXTURE_CATALOG_DIR, 'models.yaml');

const OPTIONS: EntityOptions = {
  modelsFile: MODELS_FILE,
  defaultOwner: 'group:default/ml-platform',
  defaultLifecycle: 'production',
  apiEntities: true,
  gateways: [],
};

const CHAT = ['/v1/chat/completions', '/v1/completions'];

/** Every model of the repository's models.yaml, with what its entities must say. */
const MODELS = [
  {
    model: 'qwen2-5-7b-instruct',
    runtime: 'vllm',
    category: 'llm',
    serverVersion: '0.24.0',
    paths: CHAT,
    served: 'Qwen/Qwen2.5-7B-Instruct',
  },
  {
    model: 'llama-3-1-8b-instruct',
    runtime: 'vllm',
    category: 'llm',
    serverVersion: '0.19.1',
    paths: CHAT,
    served: 'meta-llama/Llama-3.1-8B-Instruct',
  },
  {
    model: 'qwen2-5-vl-7b-instruct',
    runtime: 'vllm',
    category: 'vlm',
    serverVersion: '0.24.0',
    paths: CHAT,
    served: 'Qwen/Qwen2.5-VL-7B-Instruct',
  },
  {
    model: 'bge-m3',
    runtime: 'vllm',
    category: 'embed',
    serverVersion: '0.24.0',
    paths: ['/v1/embeddings'],
    served: 'BAAI/bge-m3',
  },
  {
    model: 'bge-reranker-v2-m3',
    runtime: 'vllm',
    category: 'rerank',
    serverVersion: '0.24.0',
    paths: ['/v1/rerank', '/v1/score'],
    served: 'BAAI/bge-reranker-v2-m3',
  },
  {
    model: 'qwen3-30b-a3b',
    runtime: 'vllm',
    category: 'llm',
    serverVersion: '0.24.0',
    paths: CHAT,
    served: 'Qwen/Qwen3-30B-A3B',
  },
  {
    model: 'bge-small-en-v1-5-ov',
    runtime: 'openvino',
    category: 'embed',
    serverVersion: undefined,
    paths: ['/v1/embeddings'],
    served: 'bge-small-en-v1-5-ov',
  },
  {
    model: 'bge-reranker-base-ov',
    runtime: 'openvino',
    category: 'rerank',
    serverVersion: undefined,
    paths: ['/v1/rerank'],
    served: 'bge-reranker-base-ov',
  },
  {
    model: 'phi-3-5-mini-instruct-int4-ov',
    runtime: 'openvino',
    category: 'llm',
    serverVersion: undefined,
    paths: CHAT,
    served: 'phi-3-5-mini-instruct-int4-ov',
  },
];

const RUNTIMES = [
  {
    runtime: 'vllm',
    kind: 'LLMInferenceService',
    versions: '0.24.0,0.19.1',
    defaultVersion: '0.24.0',
    description:
      'Model runtime vllm: LLMInferenceService, versions 0.24.0 (default), 0.19.1.',
  },
  {
    runtime: 'openvino',
    kind: 'InferenceService',
    versions: undefined,
    defaultVersion: undefined,
    description:
      'Model runtime openvino: InferenceService, flat (no versions), image openvino/model_server:2026.3.',
  },
];

/** The checks the catalog itself runs on every entity (policies, then the kind's schema). */
const policy = EntityPolicies.allOf([
  new SchemaValidEntityPolicy(),
  new DefaultNamespaceEntityPolicy(),
  new NoForeignRootFieldsEntityPolicy(),
  new FieldFormatEntityPolicy(),
]);
const kindValidators = [
  componentEntityV1alpha1Validator,
  resourceEntityV1alpha1Validator,
  apiEntityV1alpha1Validator,
];
async function validate(entity: Entity): Promise<void> {
  const enforced = await policy.enforce(entity);
  for (const validator of kindValidators) {
    if (await validator.check(enforced!)) return;
  }
  throw new Error(`no validator knows kind ${entity.kind}`);
}

let catalog: Catalog;
let entities: Entity[];
const find = (kind: string, name: string) =>
  entities.find(e => e.kind === kind && e.metadata.name === name);

beforeAll(async () => {
  catalog = await loadCatalog({ modelsFile: MODELS_FILE });
  const built = buildEntities(catalog, OPTIONS);
  expect(built.warnings).toEqual([]);
  entities = built.entities;
});

describe('buildEntities over the repository models.yaml', () => {
  it('the table covers every model and runtime of models.yaml', () => {
    expect(MODELS.map(r => r.model).sort()).toEqual(
      Object.keys(catalog.models).sort(),
    );
    expect(RUNTIMES.map(r => r.runtime).sort()).toEqual(
      Object.keys(catalog.runtimes).sort(),
    );
    expect(entities).toHaveLength(MODELS.length * 2 + RUNTIMES.length);
  });

  it.each(MODELS)(
    'model $model is a Component (runtime $runtime, category $category)',
    row => {
      const config = catalog.models[row.model].config;
      const entity = find('Component', row.model)!;
      expect(entity).toBeDefined();
      expect(entity.apiVersion).toBe('backstage.io/v1alpha1');
      expect(entity.metadata.title).toBe(row.model);
      expect(entity.metadata.description).toBe(config.description);
      expect(entity.metadata.links).toEqual([
        expect.objectContaining({
          url: `https://huggingface.co/${config.model_id}`,
        }),
      ]);
      const annotations: Record<string, string> = {
        'backstage.io/managed-by-location': `file:${MODELS_FILE}`,
        'backstage.io/managed-by-origin-location': `file:${MODELS_FILE}`,
        'backstage.io/kubernetes-id': row.model,
        'backstage.io/kubernetes-label-selector': `app.kubernetes.io/name=${row.model}`,
        'model-manager.io/model': row.model,
        'model-manager.io/runtime': row.runtime,
        'model-manager.io/category': row.category,
        'model-manager.io/model-id': config.model_id,
      };
      if (row.serverVersion)
        annotations['model-manager.io/server-version'] = row.serverVersion;
      expect(entity.metadata.annotations).toEqual(annotations);
      expect(entity.spec).toEqual({
        type: 'model-server',
        lifecycle: 'production',
        owner: config.owner,
        dependsOn: [`resource:default/${row.runtime}-runtime`],
        providesApis: [`api:default/${row.model}-openai-api`],
      });
      const tags = entity.metadata.tags!;
      expect(tags).toEqual(
        expect.arrayContaining([
          ...(config.tags ?? []),
          row.runtime,
          row.category,
        ]),
      );
      expect(new Set(tags).size).toBe(tags.length);
    },
  );

  it.each(MODELS)('model $model has an API answering $paths', row => {
    const api = find('API', `${row.model}-openai-api`)!;
    expect(api.spec).toMatchObject({
      type: 'openapi',
      lifecycle: 'production',
      owner: catalog.models[row.model].config.owner,
    });
    const definition = JSON.parse(api.spec!.definition as string);
    expect(definition.openapi).toMatch(/^3\./);
    expect(Object.keys(definition.paths)).toEqual(row.paths);
    for (const p of row.paths)
      expect(Object.keys(definition.paths[p])).toEqual(['post']);
    // Every $ref resolves, and requests name the model the server actually serves.
    for (const ref of JSON.stringify(definition).match(
      /#\/components\/schemas\/\w+/g,
    )!) {
      expect(
        definition.components.schemas[ref.split('/').pop()!],
      ).toBeDefined();
    }
    const request = definition.paths[row.paths[0]].post.requestBody.content[
      'application/json'
    ].schema.$ref
      .split('/')
      .pop();
    expect(
      definition.components.schemas[request].properties.model.example,
    ).toBe(row.served);
    if (row.runtime === 'openvino')
      expect(api.metadata.description).toMatch(
        /rewrites \/v1\/ to OpenVINO Model Server's \/v3\/; clients always use \/v1\//,
      );
    else expect(api.metadata.description).not.toMatch(/\/v3\//);
  });

  it.each(RUNTIMES)(
    'runtime $runtime is a Resource with its versions and default',
    row => {
      const entity = find('Resource', `${row.runtime}-runtime`)!;
      expect(entity.spec).toEqual({
        type: 'model-runtime',
        owner: 'group:default/ml-platform',
        lifecycle: 'production',
      });
      expect(entity.metadata.description).toBe(row.description);
      expect(entity.metadata.annotations).toEqual({
        'backstage.io/managed-by-location': `file:${MODELS_FILE}`,
        'backstage.io/managed-by-origin-location': `file:${MODELS_FILE}`,
        'model-manager.io/runtime': row.runtime,
        'model-manager.io/kind': row.kind,
        ...(row.versions ? { 'model-manager.io/versions': row.versions } : {}),
        ...(row.defaultVersion
          ? { 'model-manager.io/default-version': row.defaultVersion }
          : {}),
      });
    },
  );

  it('every entity passes the catalog validators', async () => {
    for (const entity of entities) {
      await expect(validate(entity)).resolves.toBeUndefined();
    }
  });

  it('every relation target is an emitted entity', () => {
    const refs = new Set(entities.map(e => stringifyEntityRef(e)));
    for (const entity of entities) {
      for (const target of [
        ...((entity.spec?.dependsOn as string[]) ?? []),
        ...((entity.spec?.providesApis as string[]) ?? []),
      ]) {
        expect(refs).toContain(target);
      }
    }
  });

  it('a VLM chat API accepts image parts; an LLM one takes text only', () => {
    const schema = (model: string) =>
      JSON.parse(find('API', `${model}-openai-api`)!.spec!.definition as string)
        .components.schemas.ChatCompletionRequest.properties.messages.items
        .properties.content;
    expect(JSON.stringify(schema('qwen2-5-vl-7b-instruct'))).toContain(
      'image_url',
    );
    expect(schema('qwen2-5-7b-instruct')).toEqual({ type: 'string' });
  });
});

describe('buildEntities options and model fields', () => {
  const withModel = (
    name: string,
    change: Record<string, unknown>,
  ): Catalog => ({
    ...catalog,
    models: {
      ...catalog.models,
      [name]: { name, config: { ...catalog.models[name].config, ...change } },
    },
  });

  it("the API's `model` is the runtime's plumbing served_model_name, the value the gateway routes on", () => {
    const switched: Catalog = {
      ...catalog,
      runtimes: {
        ...catalog.runtimes,
        vllm: {
          ...catalog.runtimes.vllm,
          config: {
            ...catalog.runtimes.vllm.config,
            served_model_name: 'model_name',
          },
        },
      },
    };
    const api = buildEntities(switched, OPTIONS).entities.find(
      e =>
        e.kind === 'API' &&
        e.metadata.name === 'qwen2-5-7b-instruct-openai-api',
    )!;
    const definition = JSON.parse(api.spec!.definition as string);
    const request = definition.paths[
      '/v1/chat/completions'
    ].post.requestBody.content['application/json'].schema.$ref
      .split('/')
      .pop();
    expect(
      definition.components.schemas[request].properties.model.example,
    ).toBe('qwen2-5-7b-instruct');
  });

  describe("the API's endpoint", () => {
    const definitionOf = (
      options: EntityOptions,
      model = 'phi-3-5-mini-instruct-int4-ov',
    ) =>
      JSON.parse(
        buildEntities(catalog, options).entities.find(
          e => e.kind === 'API' && e.metadata.name === `${model}-openai-api`,
        )!.spec!.definition as string,
      );

    it('is each configured cluster gateway (OpenAPI servers); clients call /v1 there', () => {
      const definition = definitionOf({
        ...OPTIONS,
        gateways: [
          { cluster: 'local', baseUrl: 'https://ai.example.com' },
          { cluster: 'prod', baseUrl: 'https://ai.prod.example.com' },
        ],
      });
      expect(definition.servers).toEqual([
        {
          url: 'https://ai.example.com',
          description: 'the AI gateway of cluster local',
        },
        {
          url: 'https://ai.prod.example.com',
          description: 'the AI gateway of cluster prod',
        },
      ]);
      expect(Object.keys(definition.paths)).toEqual([
        '/v1/chat/completions',
        '/v1/completions',
      ]);
      expect(definition.info.description).toMatch(
        /the gateway rewrites \/v1\/ to \/v3\//,
      );
    });

    it('vLLM: where KServe reports it deployed (status.url, /v1 under it) first, then the gateways', () => {
      const { entities: deployed } = buildEntities(
        catalog,
        {
          ...OPTIONS,
          gateways: [{ cluster: 'local', baseUrl: 'https://ai.example.com' }],
        },
        {
          'qwen2-5-7b-instruct': [
            {
              cluster: 'local',
              namespace: 'models',
              url: 'http://gw.models.svc/models/qwen2-5-7b-instruct/',
            },
          ],
        },
      );
      const definition = JSON.parse(
        deployed.find(
          e =>
            e.kind === 'API' &&
            e.metadata.name === 'qwen2-5-7b-instruct-openai-api',
        )!.spec!.definition as string,
      );
      expect(definition.servers).toEqual([
        {
          url: 'http://gw.models.svc/models/qwen2-5-7b-instruct',
          description:
            'deployed on cluster local, namespace models (the URL KServe reports)',
        },
        {
          url: 'https://ai.example.com',
          description: 'the AI gateway of cluster local',
        },
      ]);
    });

    it("OpenVINO: the gateways only; the predictor's own URL answers OVMS's /v3, not the /v1 paths", () => {
      const model = 'phi-3-5-mini-instruct-int4-ov';
      const deployments = {
        [model]: [
          {
            cluster: 'local',
            namespace: 'models',
            url: 'http://phi-models.example.com',
          },
        ],
      };
      const definition = JSON.parse(
        buildEntities(catalog, OPTIONS, deployments).entities.find(
          e => e.kind === 'API' && e.metadata.name === `${model}-openai-api`,
        )!.spec!.definition as string,
      );
      expect(definition.servers).toBeUndefined();
      expect(definition.info.description).toMatch(/No endpoint yet/);
    });

    it('without a configured gateway: no servers, and it says there is no endpoint yet (no placeholder)', () => {
      const definition = definitionOf(OPTIONS);
      expect(definition.servers).toBeUndefined();
      expect(definition.info.description).toMatch(
        /No endpoint yet: not deployed where KServe reports a URL.*no cluster gateway is configured \(modelManager\.kubernetes\.clusters\.<cluster>\.gatewayBaseUrl\)/,
      );
      expect(JSON.stringify(definition)).not.toMatch(/<gateway>/);
    });
  });

  it('apiEntities: false emits no API and no providesApis', () => {
    const { entities: plain } = buildEntities(catalog, {
      ...OPTIONS,
      apiEntities: false,
    });
    expect(plain.filter(e => e.kind === 'API')).toEqual([]);
    expect(plain.filter(e => e.spec?.providesApis)).toEqual([]);
    expect(plain).toHaveLength(MODELS.length + RUNTIMES.length);
  });

  it('a model without owner, description or display_name gets the defaults', () => {
    const variant = withModel('qwen2-5-7b-instruct', {
      owner: undefined,
      description: undefined,
    });
    const options = {
      ...OPTIONS,
      defaultOwner: 'group:default/llm-team',
      defaultLifecycle: 'experimental',
    };
    const built = buildEntities(variant, options).entities;
    const component = built.find(
      e => e.metadata.name === 'qwen2-5-7b-instruct',
    )!;
    expect(component.metadata.title).toBe('qwen2-5-7b-instruct');
    expect(component.metadata.description).toBe(
      'Qwen/Qwen2.5-7B-Instruct on vllm 0.24.0 (llm)',
    );
    expect(component.spec).toMatchObject({
      owner: 'group:default/llm-team',
      lifecycle: 'experimental',
    });
    const flat = buildEntities(
      withModel('bge-small-en-v1-5-ov', { description: undefined }),
      OPTIONS,
    ).entities;
    expect(
      flat.find(e => e.metadata.name === 'bge-small-en-v1-5-ov')!.metadata
        .description,
    ).toBe('OpenVINO/bge-small-en-v1.5-int8-ov on openvino (embed)');
  });

  it('display_name, lifecycle and system of a model are used on its Component and API', () => {
    const variant = withModel('bge-m3', {
      display_name: 'BGE M3',
      lifecycle: 'experimental',
      system: 'system:default/search',
    });
    const built = buildEntities(variant, OPTIONS).entities;
    const component = built.find(
      e => e.kind === 'Component' && e.metadata.name === 'bge-m3',
    )!;
    const api = built.find(
      e => e.kind === 'API' && e.metadata.name === 'bge-m3-openai-api',
    )!;
    expect(component.metadata.title).toBe('BGE M3');
    expect(component.spec).toMatchObject({
      lifecycle: 'experimental',
      system: 'system:default/search',
    });
    expect(api.spec).toMatchObject({
      lifecycle: 'experimental',
      system: 'system:default/search',
    });
  });

  it('defaultSystem puts models, their APIs and the runtimes in a system; the system of a model wins; runtimes get the default lifecycle', () => {
    const variant = withModel('bge-m3', { system: 'system:default/search' });
    const built = buildEntities(variant, {
      ...OPTIONS,
      defaultSystem: 'model-serving',
    }).entities;
    const spec = (kind: string, name: string) =>
      built.find(e => e.kind === kind && e.metadata.name === name)!.spec;
    expect(spec('Component', 'qwen2-5-7b-instruct')).toMatchObject({
      system: 'model-serving',
    });
    expect(spec('API', 'qwen2-5-7b-instruct-openai-api')).toMatchObject({
      system: 'model-serving',
    });
    expect(spec('Resource', 'vllm-runtime')).toMatchObject({
      system: 'model-serving',
      lifecycle: 'production',
    });
    expect(spec('Component', 'bge-m3')).toMatchObject({
      system: 'system:default/search',
    });
    expect(
      buildEntities(catalog, OPTIONS).entities.filter(e => e.spec?.system),
    ).toEqual([]);
  });

  it('tags are lowercased, cleaned and deduplicated', () => {
    const built = buildEntities(
      withModel('bge-m3', {
        tags: ['Embeddings', 'multi lingual', 'vllm', 'C++', '日本'],
      }),
      OPTIONS,
    ).entities;
    expect(
      built.find(e => e.metadata.name === 'bge-m3')!.metadata.tags,
    ).toEqual(['embeddings', 'multi-lingual', 'vllm', 'c++', 'embed']);
  });

  it.each([
    { rule: 'lowercases', value: 'Chat', tag: 'chat' },
    {
      rule: 'turns runs of other characters into one dash',
      value: 'foo_bar  baz',
      tag: 'foo-bar-baz',
    },
    { rule: 'keeps + and #', value: 'C#/C++', tag: 'c#-c++' },
    { rule: 'trims dashes', value: '--int4--', tag: 'int4' },
    {
      rule: 'caps at 63 characters',
      value: 'a'.repeat(70),
      tag: 'a'.repeat(63),
    },
    { rule: 'drops what has nothing left', value: '日本', tag: undefined },
  ])('toTag $rule', ({ value, tag }) => {
    expect(toTag(value)).toBe(tag);
  });
});

describe('buildEntities with names the catalog refuses', () => {
  it('skips a runtime whose entity name is invalid and an API whose name is too long, with warnings', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-entities-'));
    fs.cpSync(
      path.join(FIXTURE_CATALOG_DIR, 'runtimes'),
      path.join(dir, 'runtimes'),
      {
        recursive: true,
      },
    );
    const longName = `m${'x'.repeat(52)}z`; // 54 characters: the longest model name models.yaml allows
    // 60 characters: a label value Kubernetes accepts (the runtime label), too long an entity name
    // once `-runtime` is added (63 at most).
    const runtime = `vllm-nightly-${'x'.repeat(47)}`;
    fs.writeFileSync(
      path.join(dir, 'models.yaml'),
      [
        'models:',
        `  ${longName}:`,
        '    model_id: Qwen/Qwen2.5-7B-Instruct',
        '    category: llm',
        `    server: { runtime: "${runtime}" }`,
        'runtimes:',
        `  "${runtime}":`,
        '    profile: vllm/profile.yaml',
        '    kind: LLMInferenceService',
        '    default_version: "0.25.0"',
        '    versions: { "0.25.0": { image: "docker.io/vllm/vllm-openai-cpu:nightly" } }',
        '    categories: { llm: { defaults: { cpu: 8, memory: 16Gi } } }',
        '',
      ].join('\n'),
    );
    const odd = await loadCatalog({
      modelsFile: path.join(dir, 'models.yaml'),
    });
    const built = buildEntities(odd, {
      ...OPTIONS,
      modelsFile: path.join(dir, 'models.yaml'),
    });
    expect(built.warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^model-manager: runtime '${runtime}' in models\\.yaml gets no catalog entity: '${runtime}-runtime' is not a valid entity name`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^model-manager: model '${longName}' in models\\.yaml gets no API entity: .* at most 52 characters$`,
        ),
      ),
    ]);
    expect(built.entities.map(e => `${e.kind}:${e.metadata.name}`)).toEqual([
      `Component:${longName}`,
    ]);
    const component = built.entities[0];
    expect(component.spec).not.toHaveProperty('dependsOn');
    expect(component.spec).not.toHaveProperty('providesApis');
    expect(component.metadata.tags).toEqual([runtime, 'llm']);
    expect(
      component.metadata.annotations!['model-manager.io/server-version'],
    ).toBe('0.25.0');
    await expect(validate(component)).resolves.toBeUndefined();
  });
});
