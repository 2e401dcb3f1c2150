import { buildCatalog } from '../catalog/buildCatalog';
import { modelsYaml, fixtureSources } from '../testUtils/catalogFixtures';
import { CatalogError } from '../source/problems';

/** models.yaml with one model whose server has the given lines (indented under server:). */
const withServer = (lines: string) =>
  modelsYaml(`
  gated:
    model_id: meta-llama/Llama-3.1-8B-Instruct
    category: llm
    server:
      runtime: vllm
${lines.replace(/^\n/, '').replace(/\s+$/, '')}
`);

/** The problems of loading `text`, each as `line:col path: message`. */
function problemsOf(text: string) {
  try {
    buildCatalog(fixtureSources({ models: text }));
  } catch (e) {
    expect(e).toBeInstanceOf(CatalogError);
    return (e as CatalogError).problems;
  }
  throw new Error('expected the file to be refused');
}

/** 1-based line of the first line of `text` containing `marker`. */
const lineOf = (text: string, marker: string) =>
  text.split('\n').findIndex(l => l.includes(marker)) + 1;

describe('bad Secret references in models.yaml: file:line:col, the path and the fix', () => {
  it.each([
    {
      rule: 'a secretKeyRef without a key',
      server: `
      env:
        HF_TOKEN:
          secretKeyRef: { name: hf-token }`,
      path: 'models.gated.server.env.HF_TOKEN.secretKeyRef.key',
      at: 'secretKeyRef: { name: hf-token }',
      message:
        /secretKeyRef needs key: the key within the Secret.*e\.g\. key: token/,
    },
    {
      rule: 'an invalid Secret name (not a DNS-1123 subdomain)',
      server: `
      env:
        HF_TOKEN:
          secretKeyRef: { name: HF_Token, key: token }`,
      path: 'models.gated.server.env.HF_TOKEN.secretKeyRef.name',
      at: 'name: HF_Token',
      message:
        /'HF_Token' is not a valid Secret name: a DNS-1123 subdomain .*e\.g\. hf-token/,
    },
    {
      rule: 'valueFrom written inside the env value (the Kubernetes spelling)',
      server: `
      env:
        HF_TOKEN:
          valueFrom:
            secretKeyRef: { name: hf-token, key: token }`,
      path: 'models.gated.server.env.HF_TOKEN.valueFrom',
      at: 'valueFrom:',
      message:
        /valueFrom does not go here: .*NAME: \{ secretKeyRef: \{ name: hf-token, key: token \} \} \(model-manager renders it as valueFrom\.secretKeyRef\)/,
    },
    {
      rule: 'a Kubernetes env list instead of a map',
      server: `
      env:
        - name: HF_TOKEN
          valueFrom: { secretKeyRef: { name: hf-token, key: token } }`,
      path: 'models.gated.server.env',
      at: '- name: HF_TOKEN',
      message:
        /env must be a map of NAME: value \(not a Kubernetes env list\); a Secret: NAME: \{ secretKeyRef/,
    },
    {
      rule: 'an unknown key in secretKeyRef',
      server: `
      env:
        HF_TOKEN:
          secretKeyRef: { name: hf-token, key: token, namespace: other }`,
      path: 'models.gated.server.env.HF_TOKEN.secretKeyRef.namespace',
      at: 'namespace: other',
      message:
        /unknown key 'namespace' in secretKeyRef; allowed here: name, key/,
    },
    {
      rule: 'a token written as a plain value',
      server: `
      env:
        HF_TOKEN: hf_SeCrEt0123456789abcdefghijkl`,
      path: 'models.gated.server.env.HF_TOKEN',
      at: 'HF_TOKEN: hf_',
      message:
        /looks like a credential .*write NAME: \{ secretKeyRef: \{ name: hf-token, key: token \} \}/,
    },
    {
      rule: 'an invalid image pull secret name',
      server: `
      image_pull_secrets: [Registry_Creds]`,
      path: 'models.gated.server.image_pull_secrets[0]',
      at: 'image_pull_secrets: [Registry_Creds]',
      message: /'Registry_Creds' is not a valid Secret name/,
    },
    {
      rule: 'image_pull_secrets given as one name instead of a list',
      server: `
      image_pull_secrets: registry-creds`,
      path: 'models.gated.server.image_pull_secrets',
      at: 'image_pull_secrets: registry-creds',
      message:
        /image_pull_secrets must be a list of Secret names, e\.g\. \[registry-creds\]/,
    },
    {
      rule: "image_pull_secrets written as a pod spec's [{name: ...}] says to write the plain names",
      server: `
      image_pull_secrets: [{ name: regcred }]`,
      path: 'models.gated.server.image_pull_secrets[0]',
      at: 'image_pull_secrets: [{ name: regcred }]',
      message:
        /image_pull_secrets lists Secret names as plain strings, not \{name: \.\.\.\} as in a pod spec: write \[regcred\], not \[\{name: regcred\}\]/,
    },
  ])('$rule', ({ server, path, at, message }) => {
    const text = withServer(server);
    const problems = problemsOf(text);
    const problem = problems.find(p => p.path === path);
    expect(problems.map(p => p.path)).toContain(path);
    expect(problem!.file).toBe('models.yaml');
    expect(problem!.line).toBe(lineOf(text, at));
    expect(problem!.col).toBeGreaterThan(0);
    expect(problem!.message).toMatch(message);
    expect(problems.map(p => p.message).join('\n')).not.toContain('hf_SeCrEt');
  });

  it('keeps null removal and plain values working beside references', () => {
    const catalog = buildCatalog(
      fixtureSources({
        models: withServer(`
      env:
        VLLM_LOGGING_LEVEL: null
        VLLM_CPU_OMP_THREADS_BIND: "0-7"
        HF_TOKEN: { secretKeyRef: { name: hf-token, key: token } }`),
      }),
    );
    expect(catalog.models.gated.config.server.env).toEqual({
      VLLM_LOGGING_LEVEL: null,
      VLLM_CPU_OMP_THREADS_BIND: '0-7',
      HF_TOKEN: { secretKeyRef: { name: 'hf-token', key: 'token' } },
    });
  });
});
