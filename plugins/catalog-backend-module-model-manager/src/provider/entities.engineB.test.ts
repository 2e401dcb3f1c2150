import path from 'node:path';
import { FIXTURE_ENGINE_B_DIR } from '@model-manager/plugin-model-manager-common/testUtils';
import { loadCatalog } from '@model-manager/plugin-model-manager-node';
import { buildEntities } from './entities';
import { openAiApiDefinition } from './openAiApiDefinition';

// fixture-engine-b: an engine whose categories are named unlike the shipped ones (assistant,
// seeing, vectors, scorer). Their API entities follow its profile's api.operations and
// api.image_input, with no code that knows a category name.
const MODELS_FILE = path.join(FIXTURE_ENGINE_B_DIR, 'models.yaml');

/** The chat message content schema of a definition, or undefined without chat. */
const chatContent = (definition: any) =>
  definition.components.schemas.ChatCompletionRequest?.properties.messages.items
    .properties.content;

describe('API entities of an engine with its own category names (fixture-engine-b)', () => {
  const entitiesOf = async () => {
    const catalog = await loadCatalog({
      modelsFile: MODELS_FILE,
      runtimesDir: path.join(FIXTURE_ENGINE_B_DIR, 'runtimes'),
    });
    return buildEntities(catalog, {
      modelsFile: MODELS_FILE,
      defaultOwner: 'group:default/ml-platform',
      defaultLifecycle: 'production',
      apiEntities: true,
      gateways: [],
    }).entities;
  };

  it.each([
    {
      model: 'helper-chat',
      paths: ['/v1/chat/completions', '/v1/completions'],
      images: false,
    },
    { model: 'helper-eyes', paths: ['/v1/chat/completions'], images: true },
    { model: 'helper-vectors', paths: ['/v1/embeddings'], images: false },
    { model: 'helper-scorer', paths: ['/v1/score'], images: false },
  ])(
    '$model: the operations of its category, image parts as the profile says ($images)',
    async ({ model, paths, images }) => {
      const api = (await entitiesOf()).find(
        e => e.kind === 'API' && e.metadata.name === `${model}-openai-api`,
      )!;
      const definition = JSON.parse(api.spec!.definition as string);
      expect(Object.keys(definition.paths)).toEqual(paths);
      const content = chatContent(definition);
      if (images) expect(JSON.stringify(content)).toContain('image_url');
      else if (content) expect(content).toEqual({ type: 'string' });
    },
  );
});

describe('openAiApiDefinition reads image input from the profile, not the category name', () => {
  const definition = (imageInput: string[] | undefined) =>
    JSON.parse(
      openAiApiDefinition({
        name: 'm',
        title: 'm',
        modelId: 'o/m',
        category: 'vlm',
        runtime: 'r',
        api: {
          engine: 'E',
          operations: { vlm: ['chat'] },
          ...(imageInput ? { imageInput } : {}),
        },
      })!,
    );
  it.each([
    {
      rule: 'a profile that lists vlm in image_input',
      imageInput: ['vlm'],
      images: true,
    },
    {
      rule: 'a category named vlm on a profile without image_input',
      imageInput: undefined,
      images: false,
    },
    {
      rule: 'a profile listing other categories only',
      imageInput: ['seeing'],
      images: false,
    },
  ])('$rule', ({ imageInput, images }) => {
    expect(
      JSON.stringify(chatContent(definition(imageInput))).includes('image_url'),
    ).toBe(images);
  });
});
