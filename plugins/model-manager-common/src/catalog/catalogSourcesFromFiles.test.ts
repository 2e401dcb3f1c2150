import {
  catalogSourcesFromFiles,
  runtimesFileRole,
} from './catalogSourcesFromFiles';

describe('runtimesFileRole', () => {
  it.each([
    { rule: "a runtime's values", path: 'vllm/values.yaml', role: 'values' },
    { rule: 'an engine profile', path: 'tgi/profile.yaml', role: 'profile' },
    {
      rule: 'a shared template',
      path: 'templates/inference-service.yaml',
      role: 'template',
    },
    { rule: 'a .yml template', path: 'templates/x.yml', role: 'template' },
    {
      rule: "another YAML file of a runtime's folder is a manifest",
      path: 'openvino/serving-runtime.yaml',
      role: 'manifest',
    },
    {
      rule: 'values.yml is a manifest, not values',
      path: 'vllm/values.yml',
      role: 'manifest',
    },
    { rule: 'not YAML', path: 'vllm/README.md', role: undefined },
    { rule: 'directly in runtimes/', path: 'values.yaml', role: undefined },
    { rule: 'two folders down', path: 'vllm/old/values.yaml', role: undefined },
  ])('$rule: $path', ({ path, role }) => {
    expect(runtimesFileRole(path)).toBe(role);
  });
});

describe('catalogSourcesFromFiles', () => {
  const text = (file: string) => ({ file: `runtimes/${file}`, text: file });
  const models = { file: 'models.yaml', text: 'models: {}' };

  it('sorts each file into its place, keyed as buildCatalog reads them, in path order', () => {
    const files = [
      'vllm/values.yaml',
      'templates/b.yaml',
      'tgi/profile.yaml',
      'openvino/serving-runtime.yaml',
      'vllm/profile.yaml',
      'templates/a.yaml',
      'openvino/values.yaml',
      'vllm/notes.txt',
    ];
    const sources = catalogSourcesFromFiles(
      models,
      Object.fromEntries(files.map(f => [f, text(f)])),
    );
    expect(sources.models).toBe(models);
    expect(sources.values).toEqual({
      openvino: text('openvino/values.yaml'),
      vllm: text('vllm/values.yaml'),
    });
    expect(Object.keys(sources.values)).toEqual(['openvino', 'vllm']);
    expect(sources.profiles).toEqual({
      'tgi/profile.yaml': text('tgi/profile.yaml'),
      'vllm/profile.yaml': text('vllm/profile.yaml'),
    });
    expect(Object.keys(sources.templates)).toEqual(['a.yaml', 'b.yaml']);
    expect(sources.templates['a.yaml']).toEqual(text('templates/a.yaml'));
    expect(sources.manifests).toEqual({
      'openvino/serving-runtime.yaml': text('openvino/serving-runtime.yaml'),
    });
  });
});
