import path from 'node:path';
import { loadCatalog } from '@model-manager/plugin-model-manager-node';
import { buildEntities } from './entities';

// examples/extra-runtime: a third engine added as data only (runtimes/<name>/profile.yaml and
// friends). Its models become catalog entities like any other, with the operations its profile
// declares and the name it serves them under.
const EXAMPLE = path.resolve(__dirname, '../../../../examples/extra-runtime');
const MODELS_FILE = path.join(EXAMPLE, 'models.yaml');

describe('buildEntities over examples/extra-runtime (a third engine as data)', () => {
  it('gives each model a Component and an OpenAPI API with its profile operations, and the runtime a Resource', async () => {
    const catalog = await loadCatalog({
      modelsFile: MODELS_FILE,
      runtimesDir: path.join(EXAMPLE, 'runtimes'),
    });
    const { entities, warnings } = buildEntities(catalog, {
      modelsFile: MODELS_FILE,
      defaultOwner: 'group:default/ml-platform',
      defaultLifecycle: 'production',
      apiEntities: true,
      gateways: [{ cluster: 'dev', baseUrl: 'https://gateway.example.com' }],
    });
    expect(warnings).toEqual([]);
    const [runtime] = Object.keys(catalog.runtimes);
    expect(
      entities.filter(e => e.kind === 'Resource').map(e => e.metadata.name),
    ).toEqual([`${runtime}-runtime`]);
    for (const [name, model] of Object.entries(catalog.models)) {
      const component = entities.find(
        e => e.kind === 'Component' && e.metadata.name === name,
      )!;
      expect(component.spec).toMatchObject({
        type: 'model-server',
        dependsOn: [`resource:default/${runtime}-runtime`],
        providesApis: [`api:default/${name}-openai-api`],
      });
      const api = entities.find(
        e => e.kind === 'API' && e.metadata.name === `${name}-openai-api`,
      )!;
      const definition = JSON.parse(api.spec!.definition as string);
      const expectedPaths =
        model.config.category === 'llm'
          ? ['/v1/chat/completions', '/v1/completions']
          : ['/v1/embeddings'];
      expect(Object.keys(definition.paths)).toEqual(expectedPaths);
      // The engine serves the model under its name (plumbing served_model_name: model_name).
      const request = definition.paths[
        expectedPaths[0]
      ].post.requestBody.content['application/json'].schema.$ref
        .split('/')
        .pop();
      expect(
        definition.components.schemas[request].properties.model.example,
      ).toBe(name);
      // No api_prefix: clients and the engine both use /v1, no rewrite is described.
      expect(api.metadata.description).not.toMatch(/rewrites/);
      expect(definition.servers).toEqual([
        expect.objectContaining({ url: 'https://gateway.example.com' }),
      ]);
    }
  });
});
