import fs from 'node:fs';
import path from 'node:path';
import { buildCatalog } from '../catalog/buildCatalog';
import { renderManifests } from '../renderer/renderManifests';
import { resolveServer } from '../resolver/resolveServer';
import { CatalogError } from '../source/problems';
import {
  FIXTURE_CATALOG_DIR,
  fixtureSources,
  modelsYaml,
} from '../testUtils/catalogFixtures';
import { plumbingValueProblem, type PlumbingDeclaration } from './plumbing';

const read = (file: string) =>
  fs.readFileSync(path.join(FIXTURE_CATALOG_DIR, file), 'utf8');
const VLLM = read('runtimes/vllm/profile.yaml');
const VLLM_VALUES = read('runtimes/vllm/values.yaml');
const OPENVINO = read('runtimes/openvino/profile.yaml');
const LLM_ISVC = read('runtimes/templates/llm-inference-service.yaml');

const MODELS = `
  chat:
    model_id: Qwen/Qwen2.5-7B-Instruct
    category: llm
    server:
      runtime: vllm
`;

/** The text with `from` replaced by `to` (which must be there). */
const edit = (text: string, from: string | RegExp, to: string) => {
  const out = text.replace(from, to);
  if (out === text) throw new Error(`test setup: ${from} not in the text`);
  return out;
};

/** Every problem of the test catalog with these changes, as `file:line:col: path: message`. */
function problems(changes: Parameters<typeof fixtureSources>[0]): string[] {
  try {
    buildCatalog(fixtureSources({ models: modelsYaml(MODELS), ...changes }));
  } catch (e) {
    if (!(e instanceof CatalogError)) throw e;
    return e.problems.map(
      p => `${p.file}:${p.line}:${p.col}: ${p.path}: ${p.message}`,
    );
  }
  return [];
}

/** vLLM's profile with one more plumbing key declared. */
const vllmDeclaring = (declaration: string) =>
  edit(VLLM, /^plumbing:\n/m, `plumbing:\n  ${declaration}\n`);

const decl = (d: Partial<PlumbingDeclaration>): PlumbingDeclaration => ({
  type: 'string',
  required: false,
  ...d,
});

describe('plumbingValueProblem: a value against its declared type', () => {
  it.each([
    { rule: 'string: any single-line text', d: decl({}), value: 'cpu' },
    {
      rule: 'enum: one of values',
      d: decl({ type: 'enum', values: ['a', 'b'] }),
      value: 'b',
    },
    {
      rule: 'integer: a whole number within min..max',
      d: decl({ type: 'integer', min: 1, max: 65535 }),
      value: 8080,
    },
    { rule: 'quantity', d: decl({ type: 'quantity' }), value: '1Ti' },
    { rule: 'dns_label', d: decl({ type: 'dns_label' }), value: 'my-gw' },
    { rule: 'kind', d: decl({ type: 'kind' }), value: 'InferenceService' },
    { rule: 'url_path', d: decl({ type: 'url_path' }), value: '/v3' },
  ])('accepts $rule', ({ d, value }) => {
    expect(plumbingValueProblem('k', d, value)).toBeUndefined();
  });

  it.each([
    {
      rule: 'string: a number YAML read is refused with "quote it"',
      d: decl({ description: 'a device' }),
      value: 1,
      message: 'must be a string (k, a device); quote it',
    },
    {
      rule: 'enum: another value names the allowed ones',
      d: decl({ type: 'enum', values: ['a', 'b'] }),
      value: 'c',
      message: 'k must be one of a, b',
    },
    {
      rule: 'integer: a quoted number is text, not a number',
      d: decl({ type: 'integer', default: 8080 }),
      value: '8080',
      message:
        'k must be a whole number (k), written without quotes, e.g. 8080',
    },
    {
      rule: 'integer: a fraction',
      d: decl({ type: 'integer' }),
      value: 1.5,
      message: 'k must be a whole number',
    },
    {
      rule: 'integer: out of range',
      d: decl({ type: 'integer', min: 1, max: 65535 }),
      value: 70000,
      message: 'k must be from 1 to 65535; it is 70000',
    },
    {
      rule: 'quantity',
      d: decl({ type: 'quantity', default: '100Gi' }),
      value: 'lots',
      message: 'k must be a Kubernetes quantity such as 100Gi',
    },
    {
      rule: 'dns_label',
      d: decl({ type: 'dns_label' }),
      value: 'My_GW',
      message: 'k must be a DNS-1123 label',
    },
    {
      rule: 'kind',
      d: decl({ type: 'kind' }),
      value: 'deployment',
      message: 'k must be a Kubernetes kind such as InferenceService',
    },
    {
      rule: 'url_path',
      d: decl({ type: 'url_path' }),
      value: 'v3',
      message: 'k must be a URL path starting with /',
    },
    {
      rule: 'text: a newline',
      d: decl({}),
      value: 'a\nb',
      message: 'must be a single line',
    },
  ])('refuses $rule', ({ d, value, message }) => {
    expect(plumbingValueProblem('k', d, value)).toContain(message);
  });
});

describe('plumbing declared by the engine profile', () => {
  it.each([
    {
      rule: 'a template placeholder that is neither built in nor a plumbing key of the profile is an error at the template line, naming the profile and the fix',
      changes: {
        templates: {
          'llm-inference-service.yaml': edit(
            LLM_ISVC,
            'name: ${model.name}',
            'name: ${model.name}\n  port: ${port}',
          ),
        },
      },
      expected: [
        /^runtimes\/templates\/llm-inference-service\.yaml:\d+:\d+: : unknown placeholder \$\{port\} for the engine of runtimes\/vllm\/profile\.yaml, which renders this template: declare it as a plumbing key there \(plumbing: \{ port: \{ type: string \} \}/,
      ],
    },
    {
      rule: 'a plumbing value of the wrong type in values.yaml is an error at the value, saying what to write',
      changes: {
        profiles: {
          vllm: vllmDeclaring(
            'port: { type: integer, min: 1, max: 65535, default: 8080 }',
          ),
        },
        values: { vllm: `${VLLM_VALUES}port: "eighty"\n` },
      },
      expected: [
        /^runtimes\/vllm\/values\.yaml:\d+:7: port: port must be a whole number \(port\), written without quotes, e.g\. 8080$/,
      ],
    },
    {
      rule: 'a key no profile declares is unknown, with a hint (the plumbing keys of the profiles)',
      changes: { values: { vllm: `${VLLM_VALUES}gatway_name: x\n` } },
      expected: [
        /^runtimes\/vllm\/values\.yaml:\d+:1: gatway_name: unknown key 'gatway_name'; did you mean 'gateway_name'\? allowed here: profile, device, kind, routing, .*weights_pvc/,
      ],
    },
    {
      rule: "models.yaml's schema knows the profiles' plumbing keys: a misspelt one gets a hint",
      changes: {
        models: edit(
          modelsYaml(MODELS),
          /\n {2}vllm:\n/,
          '\n  vllm:\n    routng: epp\n',
        ),
      },
      expected: [
        /^models\.yaml:\d+:5: runtimes\.vllm\.routng: unknown key 'routng'; did you mean 'routing'\? allowed here: default_version, env, .*, gateway_namespace/,
      ],
    },
    {
      rule: 'a required key no file sets',
      changes: {
        profiles: {
          vllm: vllmDeclaring('port: { type: integer, required: true }'),
        },
      },
      expected: [
        /^models\.yaml:\d+:\d+: runtimes\.vllm: runtime vllm \(LLMInferenceService\) needs plumbing key port; set it in runtimes\/vllm\/values\.yaml$/,
      ],
    },
    {
      rule: 'a declaration: enum needs values',
      changes: { profiles: { vllm: vllmDeclaring('mode: { type: enum }') } },
      expected: [
        /^runtimes\/vllm\/profile\.yaml:\d+:\d+: plumbing\.mode\.type: type enum needs values: \[the allowed values\]$/,
      ],
    },
    {
      rule: "a declaration: the default fits the key's own type",
      changes: {
        profiles: {
          vllm: vllmDeclaring('port: { type: integer, default: "8080" }'),
        },
      },
      expected: [
        /^runtimes\/vllm\/profile\.yaml:\d+:\d+: plumbing\.port\.default: the default does not fit the key's own type: port must be a whole number/,
      ],
    },
    {
      rule: 'a declaration: a key the code reads as text cannot be an integer',
      changes: {
        profiles: {
          vllm: edit(VLLM, /^( {2}routing:\n {4}type:) string$/m, '$1 integer'),
        },
      },
      expected: [
        /^runtimes\/vllm\/profile\.yaml:\d+:\d+: plumbing\.routing\.type: plumbing key routing is read by model-manager itself as text/,
      ],
    },
    {
      rule: 'a declaration: an unknown type',
      changes: {
        profiles: { vllm: vllmDeclaring('port: { type: number }') },
      },
      expected: [
        /^runtimes\/vllm\/profile\.yaml:\d+:\d+: plumbing\.port\.type: type must be one of string, enum, integer, quantity, dns_label, kind, url_path$/,
      ],
    },
  ])('$rule', ({ changes, expected }) => {
    const found = problems(changes);
    expect(found).toHaveLength(expected.length);
    expected.forEach((re, i) => expect(found[i]).toMatch(re));
  });

  it('a new key is data only: declared with a default, used by a template, rendered with its type; a runtime value wins and is traced', () => {
    const template = edit(
      LLM_ISVC,
      /^spec:\n/m,
      'spec:\n  extra:\n    port: ${port}\n    url: http://x:${port}/v1\n',
    );
    const changes = {
      models: modelsYaml(MODELS),
      profiles: {
        vllm: vllmDeclaring(
          'port: { type: integer, min: 1, max: 65535, default: 8000 }',
        ),
      },
      templates: { 'llm-inference-service.yaml': template },
    };
    const render = (c: ReturnType<typeof buildCatalog>) =>
      (
        renderManifests(c, resolveServer(c, 'chat'), { namespace: 'm' })[0]
          .manifest as any
      ).spec.extra;

    const byDefault = buildCatalog(fixtureSources(changes));
    expect(render(byDefault)).toEqual({ port: 8000, url: 'http://x:8000/v1' });
    expect(resolveServer(byDefault, 'chat').plumbing.port).toBeUndefined();

    const set = buildCatalog(
      fixtureSources({
        ...changes,
        values: { vllm: `${VLLM_VALUES}port: 9000\n` },
      }),
    );
    expect(render(set)).toEqual({ port: 9000, url: 'http://x:9000/v1' });
    expect(resolveServer(set, 'chat').plumbing.port).toMatchObject({
      value: 9000,
      origin: { layer: 'plumbing', file: 'runtimes/vllm/values.yaml' },
    });
  });

  it("another engine's key does not apply: refused naming the profile", () => {
    expect(OPENVINO).toMatch(/^ {2}weights_pvc:/m);
    expect(
      problems({ values: { vllm: `${VLLM_VALUES}weights_pvc: w\n` } }),
    ).toEqual([
      expect.stringMatching(
        /^runtimes\/vllm\/values\.yaml:\d+:1: weights_pvc: plumbing key weights_pvc does not apply to runtime vllm \(LLMInferenceService, vLLM\): its engine profile \(runtimes\/vllm\/profile\.yaml\) does not declare it under plumbing:/,
      ),
    ]);
  });
});
