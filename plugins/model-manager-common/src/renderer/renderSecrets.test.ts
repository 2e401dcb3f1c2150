import { buildCatalog } from '../catalog/buildCatalog';
import { resolveServer } from '../resolver/resolveServer';
import { fixtureSources } from '../testUtils/catalogFixtures';
import { GATED_MODELS } from '../testUtils/gatedModels';
import { renderManifests } from './renderManifests';

const catalog = buildCatalog(fixtureSources({ models: GATED_MODELS }));
const render = (model: string) =>
  Object.fromEntries(
    renderManifests(catalog, resolveServer(catalog, model), {
      namespace: 'models',
    }).map(o => [o.kind, o.manifest as any]),
  );

const TOKEN_ENV = {
  name: 'HF_TOKEN',
  valueFrom: { secretKeyRef: { name: 'hf-token', key: 'token' } },
};
const PULL = [{ name: 'registry-creds' }];

describe('rendering Secret references and pull secrets', () => {
  it('vLLM: the token reaches the serving container and KServe storage-initializer, pull secrets the pod', () => {
    const { LLMInferenceService: isvc } = render('gated-vllm');
    const main = isvc.spec.template.containers.find(
      (c: any) => c.name === 'main',
    );
    expect(main.env).toContainEqual(TOKEN_ENV);
    expect(isvc.spec.template.initContainers).toEqual([
      { name: 'storage-initializer', env: [TOKEN_ENV] },
    ]);
    expect(isvc.spec.template.imagePullSecrets).toEqual(PULL);
    expect(isvc.spec.model.uri).toBe('hf://meta-llama/Llama-3.1-8B-Instruct');
  });

  it('OVMS: the token reaches the ovms --pull Job, pull secrets the Job and predictor pods (not the shared ClusterServingRuntime)', () => {
    const objects = render('gated-ov');
    const job = objects.Job;
    expect(job.spec.template.spec.containers[0].env).toEqual([TOKEN_ENV]);
    expect(job.spec.template.spec.imagePullSecrets).toEqual(PULL);
    const predictor = objects.InferenceService.spec.predictor;
    expect(predictor.imagePullSecrets).toEqual(PULL);
    expect(predictor.model.env).toContainEqual(TOKEN_ENV);
    expect(objects.ClusterServingRuntime.spec.imagePullSecrets).toBeUndefined();
  });

  it('a model without references renders no download env, init container or pull secrets', () => {
    const plain = buildCatalog(fixtureSources());
    const objects = Object.fromEntries(
      ['qwen2-5-7b-instruct', 'bge-small-en-v1-5-ov'].flatMap(model =>
        renderManifests(plain, resolveServer(plain, model), {
          namespace: 'models',
        }).map(o => [o.kind, o.manifest as any]),
      ),
    );
    expect(objects.LLMInferenceService.spec.template).not.toHaveProperty(
      'initContainers',
    );
    expect(objects.LLMInferenceService.spec.template).not.toHaveProperty(
      'imagePullSecrets',
    );
    expect(objects.Job.spec.template.spec.containers[0]).not.toHaveProperty(
      'env',
    );
    expect(objects.InferenceService.spec.predictor).not.toHaveProperty(
      'imagePullSecrets',
    );
  });
});
