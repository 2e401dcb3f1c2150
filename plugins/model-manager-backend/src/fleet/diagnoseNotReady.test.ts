import {
  buildCatalog,
  renderManifests,
  resolveServer,
  type Catalog,
  type DeploymentRecord,
  type FleetTarget,
} from '@model-manager/plugin-model-manager-common';
import {
  dirSources,
  FIXTURE_CATALOG_DIR,
  FIXTURE_ENGINE_B_DIR,
} from '@model-manager/plugin-model-manager-common/testUtils';
import type { DiagnosisTarget } from '../diagnosis';
import { diagnoseNotReady } from './diagnoseNotReady';

const fixture = buildCatalog(dirSources(FIXTURE_CATALOG_DIR));
const engineB = buildCatalog(dirSources(FIXTURE_ENGINE_B_DIR));

/** The Job whose pods the diagnosis of a NotReady target reads, as diagnoseNotReady hands it on. */
async function progressRead(catalog: Catalog, model: string) {
  const runtime = catalog.models[model].config.server.runtime;
  const target = {
    model,
    cluster: 'local',
    namespace: 'models',
    runtime,
    state: 'NotReady',
  } as FleetTarget;
  const record = {
    model,
    cluster: 'local',
    namespace: 'models',
    manifests: renderManifests(catalog, resolveServer(catalog, model), {
      namespace: 'models',
    }),
  } as DeploymentRecord;
  const seen: DiagnosisTarget[] = [];
  await diagnoseNotReady({
    catalog,
    targets: [target],
    records: [record],
    reads: [
      { cluster: 'local', objects: [], unservedKinds: [], readAt: new Date(0) },
    ],
    reader: {
      diagnoseNamespace: async (_cluster, _namespace, targets) => {
        seen.push(...targets);
        return new Map();
      },
    },
  });
  expect(seen).toHaveLength(1);
  return seen[0].progress;
}

describe('diagnoseNotReady reads the pods of the object the profile says reports progress', () => {
  it.each([
    {
      rule: 'OVMS: its weights download Job',
      catalog: fixture,
      model: 'phi-3-5-mini-instruct-int4-ov',
      job: 'phi-3-5-mini-instruct-int4-ov-download',
    },
    {
      rule: 'vLLM: none (KServe downloads inside the server pod)',
      catalog: fixture,
      model: 'qwen2-5-7b-instruct',
      job: undefined,
    },
    {
      rule: 'an engine with two Jobs: the one its profile declares, not the first',
      catalog: engineB,
      model: 'helper-vectors',
      job: 'helper-vectors-prepare',
    },
  ])('$rule', async ({ catalog, model, job }) => {
    expect(await progressRead(catalog, model)).toEqual(
      job && { name: job, podLabel: 'batch.kubernetes.io/job-name' },
    );
  });
});
