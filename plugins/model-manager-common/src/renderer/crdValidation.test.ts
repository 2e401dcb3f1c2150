import fs from 'node:fs';
import path from 'node:path';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { parseAllDocuments } from 'yaml';
// A test-only dependency: the rendered objects are checked by the API test double's CRD
// validation, which no runtime code of this library uses.
// eslint-disable-next-line @backstage/no-mixed-plugin-imports
import {
  KubeApiTestServer,
  ADMIN_TOKEN,
} from '@model-manager/kube-api-test-server';
import { buildCatalog } from '../catalog/buildCatalog';
import { resolveServer } from '../resolver/resolveServer';
import {
  dirSources,
  fixtureSources,
  REPO_ROOT,
  shippedSources,
} from '../testUtils/catalogFixtures';
import { GATED_MODELS } from '../testUtils/gatedModels';
import { renderManifests } from './renderManifests';
import type { RenderedObject } from './types';

// The real CRDs (KServe, Gateway API, Envoy AI Gateway and Envoy Gateway's Backend), schema only,
// in the repository's test-assets/crds (scripts/vendor-test-assets.js SOURCE_DIR); MODEL_MANAGER_CRD_DIR
// points elsewhere. Upstream examples beside them. Missing CRDs fail this suite: it never skips.
const CRD_DIR =
  process.env.MODEL_MANAGER_CRD_DIR ??
  path.resolve(REPO_ROOT, 'test-assets/crds');
const EXAMPLES_DIR = path.resolve(CRD_DIR, '../examples');
for (const dir of ['kserve', 'envoy-ai-gateway']) {
  if (!fs.existsSync(path.join(CRD_DIR, dir))) {
    throw new Error(
      `No CRDs at ${path.join(
        CRD_DIR,
        dir,
      )}: copy them into the repository with node scripts/vendor-test-assets.js SOURCE_DIR (SOURCE_DIR holds the upstream crds/, examples/ and k8s-reference/), or set MODEL_MANAGER_CRD_DIR to the folder holding kserve/*.yaml and envoy-ai-gateway/*.yaml.`,
    );
  }
}
/** The objects of an upstream example file, by kind. */
const example = (file: string) =>
  parseAllDocuments(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')).map(
    d => d.toJS() as Record<string, any>,
  );

const catalog = buildCatalog(fixtureSources());
// The third engine added as data only (examples/extra-runtime).
const extra = buildCatalog(dirSources('examples/extra-runtime'));
// Gated models on both engines: env from a Secret (valueFrom.secretKeyRef, also on KServe's
// storage-initializer and the download Job) and imagePullSecrets.
const gated = buildCatalog(fixtureSources({ models: GATED_MODELS }));
// The shipped models.yaml and runtimes/, whatever engines and models they hold today.
const shipped = buildCatalog(shippedSources());
// vLLM behind the Envoy AI Gateway (routing: aigateway in models.yaml): no managed router block,
// the gateway's Backend at the workload Service.
const vllmOnGateway = buildCatalog(
  fixtureSources({
    models: fixtureSources().models.text.replace(
      /\n {2}vllm:\n/,
      '\n  vllm:\n    routing: aigateway\n',
    ),
  }),
);

describe('rendered manifests validate against the real CRD schemas', () => {
  let kube: KubeApiTestServer;
  beforeAll(async () => {
    kube = await KubeApiTestServer.start({
      crdDir: CRD_DIR,
      namespaces: ['models'],
    });
  }, 120_000);
  afterAll(() => kube.stop(), 120_000);

  /** Server-side dry-run apply: the API server's own schema validation, nothing stored. */
  async function dryRunApply(object: RenderedObject) {
    const [group, version] = object.apiVersion.includes('/')
      ? object.apiVersion.split('/')
      : ['', object.apiVersion];
    const plural = `${object.kind.toLowerCase()}s`;
    const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
    const ns = object.namespace ? `/namespaces/${object.namespace}` : '';
    const res = await fetch(
      `${kube.url}${base}${ns}/${plural}/${object.name}?fieldManager=test&dryRun=All`,
      {
        method: 'PATCH',
        headers: {
          'Content-Type': 'application/apply-patch+yaml',
          Authorization: `Bearer ${ADMIN_TOKEN}`,
        },
        body: JSON.stringify(object.manifest),
      },
    );
    return { status: res.status, body: await res.json() };
  }

  const cases = Object.entries({
    'test catalog': catalog,
    'extra runtime': extra,
    gated,
    shipped,
    'vLLM on aigateway': vllmOnGateway,
  }).flatMap(([source, c]) =>
    Object.keys(c.models).flatMap(model =>
      renderManifests(c, resolveServer(c, model), {
        namespace: 'models',
      }).map(object => ({ source, model, kind: object.kind, object })),
    ),
  );

  it('covers the extra runtime example', () => {
    expect(
      cases
        .filter(c => c.source === 'extra runtime')
        .map(c => `${c.model}: ${c.kind}`),
    ).toEqual(
      Object.keys(extra.models).flatMap(model =>
        [
          'ClusterServingRuntime',
          'InferenceService',
          'Backend',
          'AIServiceBackend',
          'AIGatewayRoute',
        ].map(kind => `${model}: ${kind}`),
      ),
    );
  });

  it.each(cases)('$source $model: $kind', async ({ object }) => {
    const { status, body } = await dryRunApply(object);
    expect({ status, message: body.message }).toEqual({
      status: 201,
      message: undefined,
    });
    // The test double's schemas of core kinds are loose: core kinds against the maintained
    // kubernetes-models schemas as well.
    if (object.kind === 'Job')
      expect(() => new Job(object.manifest as any).validate()).not.toThrow();
    if (object.kind === 'PersistentVolumeClaim')
      expect(() =>
        new PersistentVolumeClaim(object.manifest as any).validate(),
      ).not.toThrow();
  });

  const rendered = (model: string, kind: string) =>
    renderManifests(catalog, resolveServer(catalog, model), {
      namespace: 'models',
    }).find(o => o.kind === kind)!;

  it.each([
    {
      rule: "AIServiceBackend: the backend must be an Envoy Gateway Backend (the CRD's CEL rule)",
      kind: 'AIServiceBackend',
      change: (m: any) => ({
        ...m,
        spec: {
          ...m.spec,
          backendRef: {
            name: 'x-predictor',
            kind: 'Service',
            group: '',
            port: 80,
          },
        },
      }),
      message: /BackendRef must be a Backend resource of Envoy Gateway/,
    },
    {
      rule: 'AIGatewayRoute: a parent must be a Gateway',
      kind: 'AIGatewayRoute',
      change: (m: any) => ({
        ...m,
        spec: {
          ...m.spec,
          parentRefs: [{ ...m.spec.parentRefs[0], kind: 'HTTPRoute' }],
        },
      }),
      message: /only Gateway is supported/,
    },
    {
      rule: 'AIServiceBackend: the schema name is an enum',
      kind: 'AIServiceBackend',
      change: (m: any) => ({
        ...m,
        spec: { ...m.spec, schema: { name: 'OVMS', prefix: '/v3' } },
      }),
      message: /spec.schema.name: Unsupported value: "OVMS"/,
    },
    {
      rule: 'PersistentVolumeClaim: a storage request is required',
      kind: 'PersistentVolumeClaim',
      change: (m: any) => ({
        ...m,
        spec: { accessModes: m.spec.accessModes },
      }),
      message: /spec.resources\[storage\]: Required value/,
    },
  ])('the check is real: $rule', async ({ kind, change, message }) => {
    const object = rendered('bge-small-en-v1-5-ov', kind);
    const { status, body } = await dryRunApply({
      ...object,
      manifest: change(object.manifest),
    });
    expect(status).toBe(422);
    expect(body.message).toMatch(message);
  });

  it('the check is real: a secretKeyRef without its key is rejected (LLMInferenceService, storage-initializer env)', async () => {
    const object = renderManifests(gated, resolveServer(gated, 'gated-vllm'), {
      namespace: 'models',
    }).find(o => o.kind === 'LLMInferenceService')!;
    const manifest = JSON.parse(JSON.stringify(object.manifest));
    delete manifest.spec.template.initContainers[0].env[0].valueFrom
      .secretKeyRef.key;
    const { status, body } = await dryRunApply({ ...object, manifest });
    expect(status).toBe(422);
    expect(body.message).toMatch(
      /spec\.template\.initContainers\[0\]\.env\[0\]\.valueFrom\.secretKeyRef\.key: Required value/,
    );
  });

  it("the route objects have the shape of Envoy AI Gateway's own example (examples/basic/basic.yaml)", () => {
    const upstream = example('envoy-ai-gateway/basic.yaml');
    for (const kind of ['Backend', 'AIServiceBackend', 'AIGatewayRoute']) {
      const theirs = upstream.find(o => o.kind === kind)!;
      const ours = rendered('bge-small-en-v1-5-ov', kind).manifest as any;
      expect(ours.apiVersion).toBe(theirs.apiVersion);
      expect(Object.keys(ours.spec).sort()).toEqual(
        Object.keys(theirs.spec).sort(),
      );
    }
    const theirRoute = upstream.find(o => o.kind === 'AIGatewayRoute')!;
    const ourRoute = rendered('bge-small-en-v1-5-ov', 'AIGatewayRoute')
      .manifest as any;
    expect(ourRoute.spec.rules[0].matches[0].headers[0]).toMatchObject({
      type: 'Exact',
      name: theirRoute.spec.rules[0].matches[0].headers[0].name,
    });
    const theirBackend = upstream.find(o => o.kind === 'AIServiceBackend')!;
    expect(
      (rendered('bge-small-en-v1-5-ov', 'AIServiceBackend').manifest as any)
        .spec.backendRef,
    ).toEqual({
      ...theirBackend.spec.backendRef,
      name: 'bge-small-en-v1-5-ov',
    });
  });

  it("routing epp: the LLMInferenceService's router block is KServe's managed router, as in KServe's own sample", () => {
    const [sample] = example(
      'kserve/llm-inference-service-facebook-opt-125m-cpu.yaml',
    );
    const ours = rendered('qwen2-5-7b-instruct', 'LLMInferenceService')
      .manifest as any;
    expect(ours.apiVersion).toBe(sample.apiVersion);
    expect(ours.spec.router).toEqual(sample.spec.router);
  });

  it('the check is real: an unknown field is rejected', async () => {
    const [object] = renderManifests(
      catalog,
      resolveServer(catalog, 'qwen2-5-7b-instruct'),
      { namespace: 'models' },
    );
    const broken = {
      ...object,
      manifest: {
        ...object.manifest,
        spec: { ...(object.manifest as any).spec, replica: 1 },
      },
    };
    const { status, body } = await dryRunApply(broken);
    expect(status).toBe(500);
    expect(body.message).toMatch(
      /failed to create typed patch object.*replica/,
    );
  });
});
