import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mockCredentials, mockServices } from '@backstage/backend-test-utils';
import request from 'supertest';
import { useModelManager } from '../__testUtils__/testBackend';
import { FIXTURE_CATALOG_DIR } from '@model-manager/plugin-model-manager-common/testUtils';

const ALICE = mockCredentials.user.header('user:default/alice');
const TARGET = { cluster: 'local', namespace: 'models' };
const TOKEN_ENV = {
  name: 'HF_TOKEN',
  valueFrom: { secretKeyRef: { name: 'hf-token', key: 'token' } },
};
/** A made-up token: it must be refused before it is stored, logged, audited or answered. */
const SECRET = 'hf_SeCrEtVaLuE0123456789abcdefghijklmn';

/**
 * The repository's models.yaml (its llama-3-1-8b-instruct references hf-token at the model layer)
 * plus a gated model on OVMS that takes its token from the request and pulls with a pull secret.
 */
function modelsFile(): string {
  const text = fs.readFileSync(
    path.join(FIXTURE_CATALOG_DIR, 'models.yaml'),
    'utf8',
  );
  const gated = `models:
  gated-ov:
    model_id: meta-llama/Llama-3.2-1B-Instruct
    category: llm
    weight_format: int4
    server:
      runtime: openvino
      image_pull_secrets: [registry-creds]
`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-secrets-'));
  const file = path.join(dir, 'models.yaml');
  fs.writeFileSync(file, text.replace(/^models:\n/m, gated));
  return file;
}

// Every line the backend logs, at debug level (the mock root logger writes through console).
const logs: string[] = [];
beforeAll(() => {
  for (const level of ['error', 'warn', 'info', 'debug', 'log'] as const) {
    jest.spyOn(console, level).mockImplementation((...items: unknown[]) => {
      logs.push(items.map(i => JSON.stringify(i)).join(' '));
    });
  }
});
afterAll(() => jest.restoreAllMocks());

describe('gated models: Secret references, never secret values', () => {
  const ctx = useModelManager(() => ({
    modelsFile: modelsFile(),
    features: [mockServices.rootLogger.factory({ level: 'debug' })],
  }));
  const api = () => request(ctx.server);
  // Every object the cluster stored (each store event holds the object written).
  const written: unknown[] = [];
  beforeAll(() => {
    // The pull secret the gated OpenVINO model names, as the platform team would have created it
    // (hf-token is in every test cluster): preflight checks that both exist.
    ctx.kube.store.put({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/dockerconfigjson',
      metadata: { name: 'registry-creds', namespace: 'models' },
      data: {
        '.dockerconfigjson': Buffer.from('{"auths":{}}').toString('base64'),
      },
    });
    ctx.kube.store.subscribe(e => written.push(e));
  });
  const answers: string[] = [];
  const keep = (res: request.Response) => {
    answers.push(res.text ?? '', JSON.stringify(res.headers));
    return res;
  };
  const live = (apiVersion: string, kind: string, name: string) =>
    ctx.kube.store.get({ apiVersion, kind, name, namespace: 'models' }) as any;

  it('vLLM: llama-3-1-8b-instruct deploys with its token reference on the server and on the storage-initializer', async () => {
    const res = keep(
      await api()
        .post('/api/model-manager/models/llama-3-1-8b-instruct/deploy')
        .set('Authorization', ALICE)
        .send(TARGET),
    );
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    const isvc = live(
      'serving.kserve.io/v1alpha2',
      'LLMInferenceService',
      'llama-3-1-8b-instruct',
    );
    const main = isvc.spec.template.containers.find(
      (c: any) => c.name === 'main',
    );
    expect(main.env).toContainEqual(TOKEN_ENV);
    expect(isvc.spec.template.initContainers).toEqual([
      { name: 'storage-initializer', env: [TOKEN_ENV] },
    ]);
  });

  it('OVMS: a gated model deploys with a request-level token reference on the download Job and the predictor, and its pull secret', async () => {
    const res = keep(
      await api()
        .post('/api/model-manager/models/gated-ov/deploy')
        .set('Authorization', ALICE)
        .send({
          ...TARGET,
          env: {
            HF_TOKEN: { secretKeyRef: { name: 'hf-token', key: 'token' } },
          },
        }),
    );
    expect(res.status).toBe(200);
    const job = live('batch/v1', 'Job', 'gated-ov-download');
    expect(job.spec.template.spec.containers[0].env).toEqual([TOKEN_ENV]);
    expect(job.spec.template.spec.imagePullSecrets).toEqual([
      { name: 'registry-creds' },
    ]);
    const predictor = live(
      'serving.kserve.io/v1beta1',
      'InferenceService',
      'gated-ov',
    ).spec.predictor;
    expect(predictor.model.env).toContainEqual(TOKEN_ENV);
    expect(predictor.imagePullSecrets).toEqual([{ name: 'registry-creds' }]);
  });

  it('the query syntax envSecret=NAME=secret/key references a Secret, and provenance names the request', async () => {
    const res = keep(
      await api()
        .get('/api/model-manager/models/gated-ov/resolved')
        .query({ envSecret: 'HF_TOKEN=hf-token/token' })
        .set('Authorization', ALICE),
    );
    expect(res.status).toBe(200);
    expect(
      res.body.explain.find((r: any) => r.key === 'env.HF_TOKEN'),
    ).toMatchObject({
      value: 'secret hf-token/token',
      layer: 'override',
    });
  });

  it.each([
    {
      what: 'a deploy with the token as a plain env value',
      send: () =>
        api()
          .post('/api/model-manager/models/gated-ov/deploy')
          .send({ ...TARGET, env: { HF_TOKEN: SECRET } }),
      field: 'env.HF_TOKEN',
    },
    {
      what: 'a deploy with the token under a harmless name',
      send: () =>
        api()
          .post('/api/model-manager/models/llama-3-1-8b-instruct/deploy')
          .send({ ...TARGET, env: { MY_SETTING: SECRET } }),
      field: 'env.MY_SETTING',
    },
    {
      what: 'a deploy with the token as a flag',
      send: () =>
        api()
          .post('/api/model-manager/models/llama-3-1-8b-instruct/deploy')
          .send({ ...TARGET, args: [`--hf-token=${SECRET}`] }),
      field: 'args[0]',
    },
    {
      what: 'a dry run',
      send: () =>
        api()
          .post('/api/model-manager/models/gated-ov/deploy')
          .send({ ...TARGET, dryRun: true, env: { HF_TOKEN: SECRET } }),
      field: 'env.HF_TOKEN',
    },
    {
      what: 'a render',
      send: () =>
        api()
          .post('/api/model-manager/models/gated-ov/render')
          .send({ namespace: 'models', env: { HF_TOKEN: SECRET } }),
      field: 'env.HF_TOKEN',
    },
    {
      what: 'a resolve query',
      send: () =>
        api()
          .get('/api/model-manager/models/gated-ov/resolved')
          .query({ env: `HF_TOKEN=${SECRET}` }),
      field: 'env.HF_TOKEN',
    },
    {
      what: 'a diff query',
      send: () =>
        api()
          .get('/api/model-manager/models/gated-ov/diff')
          .query({ ...TARGET, env: `HF_TOKEN=${SECRET}` }),
      field: 'env.HF_TOKEN',
    },
  ])(
    'refuses $what with 400, naming the field and the fix, without repeating the value',
    async ({ send, field }) => {
      const before = ctx.kube.requests.length;
      const res = keep(await send().set('Authorization', ALICE));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(`${field}:`);
      expect(res.body.error.message).toMatch(
        /never carry a secret's value.*(--env-secret|Secret)/,
      );
      // Refused before anything reached the cluster.
      expect(ctx.kube.requests.length).toBe(before);
    },
  );

  it('the secret value appears nowhere: not in history, audit, logs, the cluster or any API answer', async () => {
    for (const model of ['gated-ov', 'llama-3-1-8b-instruct']) {
      const history = keep(
        await api()
          .get(`/api/model-manager/models/${model}/deployments`)
          .set('Authorization', ALICE),
      );
      expect(history.status).toBe(200);
      // The deploys that were made are there: the search covers real rows.
      expect(history.body.items.length).toBeGreaterThan(0);
    }
    const places = {
      answers: answers.join('\n'),
      audit: JSON.stringify(ctx.events),
      logs: logs.join('\n'),
      'kubernetes requests': JSON.stringify(ctx.kube.requests),
      'kubernetes objects': JSON.stringify(written),
    };
    // The search is real: the references themselves are there.
    expect(places.answers).toContain('hf-token');
    expect(places.audit).toContain('model-deploy');
    expect(places.logs.length).toBeGreaterThan(0);
    expect(places['kubernetes objects']).toContain('registry-creds');
    for (const [where, text] of Object.entries(places))
      expect({ where, found: text.includes(SECRET) }).toEqual({
        where,
        found: false,
      });
  });
});
