import fs from 'node:fs';
import path from 'node:path';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { KubeApiTestServer, ADMIN_TOKEN } from '@model-manager/kube-api-test-server';
import { buildCatalog } from '../catalog/buildCatalog';
import { resolveServer } from '../resolver/resolveServer';
import { repoSources, REPO_ROOT } from '../__testUtils__/fixtures';
import { renderManifests } from './renderManifests';
import type { RenderedObject } from './types';

// The real CRDs: MODEL_MANAGER_CRD_DIR, default ../shared/crds beside the repository.
const CRD_DIR = process.env.MODEL_MANAGER_CRD_DIR ?? path.resolve(REPO_ROOT, '../shared/crds');
const haveCrds = fs.existsSync(path.join(CRD_DIR, 'kserve'));
if (!haveCrds) {
  // eslint-disable-next-line no-console
  console.warn(`Skipping CRD schema validation: no CRDs at ${CRD_DIR}. Set MODEL_MANAGER_CRD_DIR to the folder holding kserve/*.yaml.`);
}
const describeWithCrds = haveCrds ? describe : describe.skip;

const catalog = buildCatalog(repoSources());

describeWithCrds('rendered manifests validate against the real CRD schemas', () => {
  let kube: KubeApiTestServer;
  beforeAll(async () => {
    kube = await KubeApiTestServer.start({ crdDir: CRD_DIR, namespaces: ['models'] });
  });
  afterAll(() => kube.stop());

  /** Server-side dry-run apply: the API server's own schema validation, nothing stored. */
  async function dryRunApply(object: RenderedObject) {
    const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : ['', object.apiVersion];
    const plural = `${object.kind.toLowerCase()}s`;
    const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
    const ns = object.namespace ? `/namespaces/${object.namespace}` : '';
    const res = await fetch(`${kube.url}${base}${ns}/${plural}/${object.name}?fieldManager=test&dryRun=All`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/apply-patch+yaml', Authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify(object.manifest),
    });
    return { status: res.status, body: await res.json() };
  }

  const cases = Object.keys(catalog.models).flatMap(model =>
    renderManifests(catalog, resolveServer(catalog, model), { namespace: 'models' }).map(object => ({ model, kind: object.kind, object })),
  );

  it.each(cases)('$model: $kind', async ({ object }) => {
    const { status, body } = await dryRunApply(object);
    expect({ status, message: body.message }).toEqual({ status: 201, message: undefined });
    if (object.kind === 'Job') {
      // The core Job against the maintained kubernetes-models schema as well.
      expect(() => new Job(object.manifest as any).validate()).not.toThrow();
    }
  });

  it('the check is real: an unknown field is rejected', async () => {
    const [object] = renderManifests(catalog, resolveServer(catalog, 'qwen2-5-7b-instruct'), { namespace: 'models' });
    const broken = { ...object, manifest: { ...object.manifest, spec: { ...(object.manifest as any).spec, replica: 1 } } };
    const { status, body } = await dryRunApply(broken);
    expect(status).toBe(500);
    expect(body.message).toMatch(/failed to create typed patch object.*replica/);
  });
});
