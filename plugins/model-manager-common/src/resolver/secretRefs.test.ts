import { InputError } from '@backstage/errors';
import { buildCatalog } from '../catalog/buildCatalog';
import { fixtureSources } from '../testUtils/catalogFixtures';
import { explainServer } from './explainServer';
import { referencedSecrets } from './referencedSecrets';
import { argRefusal, SECRET_VALUE_REFUSAL } from './requestSecrets';
import { resolveServer } from './resolveServer';
import type { ResolvedServer, ServerOverrides } from './types';

const kv = `  kv-from-secret:
    model_id: org/h
    category: llm
    server:
      runtime: vllm
      env:
        VLLM_CPU_KVCACHE_SPACE: { secretKeyRef: { name: sizes, key: kv } }
`;
const ref = (name: string, key = 'token') => ({ secretKeyRef: { name, key } });

const MODELS = `
models:
  runtime-ref:
    model_id: org/a
    category: llm
    server: { runtime: vllm }
  category-ref:
    model_id: org/b
    category: gated
    server: { runtime: vllm }
  version-ref:
    model_id: org/c
    category: llm
    server: { runtime: vllm, server_version: "0.19.1" }
  model-ref:
    model_id: org/d
    category: gated
    server:
      runtime: vllm
      server_version: "0.19.1"
      image_pull_secrets: [model-registry, version-registry]
      env:
        HF_TOKEN: { secretKeyRef: { name: model-token, key: token } }
  plain-over-ref:
    model_id: org/e
    category: llm
    server:
      runtime: vllm
      env: { HF_TOKEN: "public" }
  ref-over-plain:
    model_id: org/f
    category: llm
    server:
      runtime: vllm
      env:
        VLLM_LOGGING_LEVEL: { secretKeyRef: { name: log-level, key: level } }
  removed-ref:
    model_id: org/g
    category: gated
    server:
      runtime: vllm
      env: { HF_TOKEN: null }
runtimes:
  vllm:
    default_version: "0.24.0"
    image_pull_secrets: [runtime-registry]
    env:
      VLLM_LOGGING_LEVEL: INFO
      HF_TOKEN: { secretKeyRef: { name: runtime-token, key: token } }
    versions:
      "0.24.0": { image: "docker.io/vllm/vllm-openai-cpu:v0.24.0" }
      "0.19.1":
        image: "docker.io/vllm/vllm-openai-cpu:v0.19.1"
        image_pull_secrets: [version-registry, runtime-registry]
        env:
          HF_ENDPOINT: { secretKeyRef: { name: mirror, key: url } }
    categories:
      llm: { defaults: { cpu: 8, memory: "16Gi", kv_cache_gb: 4 } }
      gated:
        defaults: { cpu: 8, memory: "16Gi" }
        env:
          HF_TOKEN: { secretKeyRef: { name: category-token, key: token } }
  openvino:
    categories:
      llm: { defaults: { cpu: 8, memory: "16Gi" } }
`;

const catalog = buildCatalog(fixtureSources({ models: MODELS }));
const resolve = (model: string, overrides?: ServerOverrides) =>
  resolveServer(catalog, model, overrides);
const envVar = (s: ResolvedServer, name: string) =>
  s.env.find(e => e.name === name);
const refused = (model: string, overrides: ServerOverrides): string => {
  try {
    resolve(model, overrides);
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as Error).message;
  }
  throw new Error('expected the request to be refused');
};

const TOKEN = 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';

describe('Secret references in env: one row per layering rule', () => {
  const rules: Array<{
    rule: string;
    model: string;
    overrides?: ServerOverrides;
    env: string;
    value: unknown;
    layer: string;
    path: string;
    overrode?: unknown[];
  }> = [
    {
      rule: 'the runtime env may reference a Secret',
      model: 'runtime-ref',
      env: 'HF_TOKEN',
      value: ref('runtime-token'),
      layer: 'runtime-env',
      path: 'runtimes.vllm.env.HF_TOKEN',
      overrode: [],
    },
    {
      rule: 'a category reference replaces the runtime reference',
      model: 'category-ref',
      env: 'HF_TOKEN',
      value: ref('category-token'),
      layer: 'category',
      path: 'runtimes.vllm.categories.gated.env.HF_TOKEN',
      overrode: [ref('runtime-token')],
    },
    {
      rule: 'the version env delta may reference a Secret',
      model: 'version-ref',
      env: 'HF_ENDPOINT',
      value: ref('mirror', 'url'),
      layer: 'version',
      path: 'runtimes.vllm.versions["0.19.1"].env.HF_ENDPOINT',
      overrode: [],
    },
    {
      rule: "the model's server.env reference replaces the category's",
      model: 'model-ref',
      env: 'HF_TOKEN',
      value: ref('model-token'),
      layer: 'model',
      path: 'models.model-ref.server.env.HF_TOKEN',
      overrode: [ref('runtime-token'), ref('category-token')],
    },
    {
      rule: 'a later plain value replaces a reference',
      model: 'plain-over-ref',
      env: 'HF_TOKEN',
      value: 'public',
      layer: 'model',
      path: 'models.plain-over-ref.server.env.HF_TOKEN',
      overrode: [ref('runtime-token')],
    },
    {
      rule: 'a later reference replaces a plain value',
      model: 'ref-over-plain',
      env: 'VLLM_LOGGING_LEVEL',
      value: ref('log-level', 'level'),
      layer: 'model',
      path: 'models.ref-over-plain.server.env.VLLM_LOGGING_LEVEL',
      overrode: ['INFO'],
    },
    {
      rule: 'a request may reference a Secret, replacing the layers below',
      model: 'model-ref',
      overrides: { env: { HF_TOKEN: ref('request-token', 'hf') } },
      env: 'HF_TOKEN',
      value: ref('request-token', 'hf'),
      layer: 'override',
      path: 'env.HF_TOKEN',
      overrode: [
        ref('runtime-token'),
        ref('category-token'),
        ref('model-token'),
      ],
    },
  ];
  it.each(rules)('$rule', r => {
    const e = envVar(resolve(r.model, r.overrides), r.env)!;
    expect(e.value).toEqual(r.value);
    expect(e.origin).toMatchObject({ layer: r.layer, path: r.path });
    if (r.overrode) expect(e.overrode.map(o => o.value)).toEqual(r.overrode);
  });

  it('null removes an inherited reference, and the removal keeps what it removed', () => {
    const server = resolve('removed-ref');
    expect(envVar(server, 'HF_TOKEN')).toBeUndefined();
    const removed = server.removedEnv.find(e => e.name === 'HF_TOKEN')!;
    expect(removed.origin.path).toBe('models.removed-ref.server.env.HF_TOKEN');
    expect(removed.overrode.map(o => o.value)).toEqual([
      ref('runtime-token'),
      ref('category-token'),
    ]);
  });

  it('explains a reference like every other value: the reference, its layer, file:line and what it replaced', () => {
    const row = explainServer(resolve('model-ref')).find(
      r => r.key === 'env.HF_TOKEN',
    )!;
    expect(row).toMatchObject({
      value: 'secret model-token/token',
      layer: 'model',
      source: expect.stringMatching(
        /^models\.yaml:\d+:\d+ models\.model-ref\.server\.env\.HF_TOKEN$/,
      ),
    });
    expect(row.overrode.map(o => `${o.layer} ${o.value}`)).toEqual([
      'runtime-env secret runtime-token/token',
      'category secret category-token/token',
    ]);
  });

  it('refuses a Secret as the KV-cache variable (its size could not be checked), at its file:line:col', () => {
    const models = MODELS.replace('runtimes:\n', `${kv}runtimes:\n`);
    expect(() => buildCatalog(fixtureSources({ models }))).toThrow(
      /models\.yaml:\d+:\d+: models\.kv-from-secret\.server\.env\.VLLM_CPU_KVCACHE_SPACE: VLLM_CPU_KVCACHE_SPACE sizes the KV cache and is read from a Secret here \(secret sizes\/kv\).*set it with kv_cache_gb/,
    );
  });
});

describe('image_pull_secrets layering', () => {
  it.each([
    {
      rule: "a model without its own gets the runtime's",
      model: 'runtime-ref',
      names: ['runtime-registry'],
      origins: ['runtime-env runtimes.vllm.image_pull_secrets[0]'],
    },
    {
      rule: 'runtime + version + model add up, each name once at its first position; a layer naming it again becomes its origin',
      model: 'model-ref',
      names: ['runtime-registry', 'version-registry', 'model-registry'],
      origins: [
        'version runtimes.vllm.versions["0.19.1"].image_pull_secrets[1]',
        'model models.model-ref.server.image_pull_secrets[1]',
        'model models.model-ref.server.image_pull_secrets[0]',
      ],
    },
  ])('$rule', ({ model, names, origins }) => {
    const pulls = resolve(model).imagePullSecrets!;
    expect(pulls.map(p => p.value)).toEqual(names);
    expect(pulls.map(p => `${p.origin.layer} ${p.origin.path}`)).toEqual(
      origins,
    );
  });

  it('explains each pull secret with its layer', () => {
    const rows = explainServer(resolve('model-ref')).filter(r =>
      r.key.startsWith('image_pull_secrets '),
    );
    expect(rows.map(r => `${r.key} ${r.layer}`)).toEqual([
      'image_pull_secrets runtime-registry version',
      'image_pull_secrets version-registry model',
      'image_pull_secrets model-registry model',
    ]);
  });
});

describe('referencedSecrets', () => {
  it('lists every Secret a resolved server needs, by name, with each use (env key or image pull)', () => {
    const secrets = referencedSecrets(resolve('model-ref'));
    expect(
      secrets.map(s => ({
        name: s.name,
        uses: s.uses.map(u =>
          u.kind === 'env' ? `env ${u.env} key ${u.key}` : 'image-pull',
        ),
      })),
    ).toEqual([
      { name: 'mirror', uses: ['env HF_ENDPOINT key url'] },
      { name: 'model-registry', uses: ['image-pull'] },
      { name: 'model-token', uses: ['env HF_TOKEN key token'] },
      { name: 'runtime-registry', uses: ['image-pull'] },
      { name: 'version-registry', uses: ['image-pull'] },
    ]);
  });

  it('lists nothing for a server without references', () => {
    expect(referencedSecrets(resolve('removed-ref'))).toEqual([
      { name: 'runtime-registry', uses: [expect.anything()] },
    ]);
  });
});

describe('a request references a Secret but never carries a secret value', () => {
  it.each([
    {
      rule: 'a plain value for a credential-like name is refused',
      overrides: { env: { HF_TOKEN: 'not-a-real-token-shape' } },
      field: 'env.HF_TOKEN',
      fix: '--env-secret HF_TOKEN=<secret>/<key>',
      secret: 'not-a-real-token-shape',
    },
    {
      rule: 'a token-shaped value is refused under any name',
      overrides: { env: { SOME_SETTING: TOKEN } },
      field: 'env.SOME_SETTING',
      fix: '--env-secret SOME_SETTING=<secret>/<key>',
      secret: TOKEN,
    },
    {
      rule: '*_API_KEY names a credential',
      overrides: { env: { VLLM_API_KEY: 'abc' } },
      field: 'env.VLLM_API_KEY',
      fix: 'secretKeyRef',
      secret: 'abc',
    },
    {
      rule: 'a credential flag in args is refused',
      overrides: { args: [`--hf-token=${TOKEN}`] },
      field: 'args[0]',
      fix: '--env-secret HF_TOKEN=<secret>/<key>',
      secret: TOKEN,
    },
    {
      rule: 'a token-shaped arg is refused (not echoed as "not a flag")',
      overrides: { args: [TOKEN] },
      field: 'args[0]',
      fix: '--env-secret',
      secret: TOKEN,
    },
    {
      rule: 'a flag whose name ends in a credential word is a credential flag (--api-key, --ssl-keyfile-password)',
      overrides: { args: ['--ssl-keyfile-password=hunter2'] },
      field: 'args[0]',
      fix: '--env-secret HF_TOKEN=<secret>/<key>',
      secret: 'hunter2',
    },
  ])('$rule', ({ overrides, field, fix, secret }) => {
    const message = refused('runtime-ref', overrides as ServerOverrides);
    expect(message).toContain(`<request>: ${field}:`);
    expect(message).toContain(fix);
    expect(message).toContain('never carry a secret');
    expect(message).not.toContain(secret);
  });

  it.each([
    {
      rule: 'an invalid Secret name (not a DNS-1123 subdomain)',
      env: { HF_TOKEN: ref('HF_Token') },
      message:
        /<request>: env\.HF_TOKEN\.secretKeyRef\.name: 'HF_Token' is not a valid Secret name: a DNS-1123 subdomain/,
    },
    {
      rule: 'a missing key',
      env: { HF_TOKEN: { secretKeyRef: { name: 'hf-token' } } },
      message:
        /<request>: env\.HF_TOKEN\.secretKeyRef\.key: secretKeyRef needs key: .*e\.g\. key: token/,
    },
    {
      rule: 'valueFrom written inside the value',
      env: { HF_TOKEN: { valueFrom: ref('hf-token') } },
      message:
        /<request>: env\.HF_TOKEN\.valueFrom: valueFrom does not go here: .*NAME: \{ secretKeyRef: \{ name: hf-token, key: token \} \}/,
    },
  ])('a bad reference in a request: $rule', ({ env, message }) => {
    expect(
      refused('runtime-ref', { env: env as ServerOverrides['env'] }),
    ).toMatch(message);
  });

  it.each([
    ['TOKENIZERS_PARALLELISM', 'false'],
    ['VLLM_LOGGING_LEVEL', 'DEBUG'],
    ['MAX_TOKENS', '512'],
  ])('a plain %s=%s is not mistaken for a credential', (name, value) => {
    expect(
      envVar(resolve('runtime-ref', { env: { [name]: value } }), name)!.value,
    ).toBe(value);
  });
});

describe('a request arg is a credential flag when its name ends in a credential word', () => {
  it.each([
    '--hf-token=abc',
    '--hf_token=abc',
    '--HF-TOKEN=abc',
    '--token=abc',
    '--api-key=abc',
    '--api_key=abc',
    '--ssl-keyfile-password=abc',
    '--aws.secret=abc',
  ])('%s is refused', arg => {
    expect(argRefusal(arg)).toContain(SECRET_VALUE_REFUSAL);
  });

  // vLLM's tuning flags that merely contain "token" (vllm/engine/arg_utils.py): refusing them sent
  // the user to a Secret for a number.
  it.each([
    '--max-num-batched-tokens=4096',
    '--tokenizer=org/tok',
    '--tokenizer-mode=auto',
    '--tokenizer-revision=main',
    '--return-tokens-as-token-ids=true',
    '--long-prefill-token-threshold=512',
    '--secret-name=hf-token',
  ])('%s is not', arg => {
    expect(argRefusal(arg)).toBeUndefined();
  });
});
