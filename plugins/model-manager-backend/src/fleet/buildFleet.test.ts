import type { KubernetesObject } from '@kubernetes/client-node';
import {
  renderManifests,
  resolveServer,
  type Catalog,
} from '@model-manager/plugin-model-manager-common';
import { loadCatalog } from '@model-manager/plugin-model-manager-node';
import { catalogCopy } from '../__testUtils__/editableCatalog';
import { buildFleet } from './buildFleet';
import { isModelObject } from './managedKinds';

describe('buildFleet: the weights download of a NotReady target', () => {
  const MODEL = 'bge-small-en-v1-5-ov';
  const JOB = `${MODEL}-download`;
  let catalog: Catalog;
  beforeAll(async () => {
    catalog = await loadCatalog({ modelsFile: catalogCopy() });
  });
  /** The model's own objects as applied (a new deploy's), with `status` on the named kinds. */
  const live = (status: { InferenceService?: object; Job?: object }) =>
    renderManifests(
      catalog,
      resolveServer(catalog, MODEL, {}, { locate: false }),
      { namespace: 'models' },
    )
      .filter(isModelObject)
      .filter(o => o.kind !== 'Job' || status.Job)
      .map(o => {
        const s = status[o.kind as keyof typeof status];
        return {
          ...(o.manifest as KubernetesObject),
          ...(s ? { status: s } : {}),
        };
      });
  const only = (objects: KubernetesObject[]) => {
    const items = buildFleet({
      catalog,
      reads: [
        { cluster: 'local', objects, unservedKinds: [], readAt: new Date() },
      ],
      records: [],
    });
    expect(items).toHaveLength(1);
    return items[0];
  };

  it('a finished download, or a Job already removed (its TTL), is not named: the target waits for KServe alone', () => {
    const complete = {
      startTime: '2026-12-01T10:01:00Z',
      completionTime: '2026-12-01T10:20:00Z',
      succeeded: 1,
      conditions: [
        { type: 'SuccessCriteriaMet', status: 'True' },
        { type: 'Complete', status: 'True' },
      ],
    };
    for (const objects of [live({ Job: complete }), live({})]) {
      const target = only(objects);
      expect(target).toMatchObject({ state: 'NotReady', awaitingKServe: true });
      expect(target.download).toBeUndefined();
      expect(target.reason).toMatch(/^KServe has not reported a Ready/);
    }
    // The control: the same Job running is named.
    expect(only(live({ Job: { active: 1, ready: 1 } })).download).toMatchObject(
      { name: JOB, phase: 'running' },
    );
  });

  it('a Ready model does not carry its download, whatever the Job says', () => {
    const target = only(
      live({
        InferenceService: { conditions: [{ type: 'Ready', status: 'True' }] },
        Job: { active: 1, ready: 1 },
      }),
    );
    expect(target.state).toBe('Ready');
    expect(target.download).toBeUndefined();
  });

  it('a model KServe calls not Ready keeps KServe’s reason while the download runs (not waiting)', () => {
    const target = only(
      live({
        InferenceService: {
          conditions: [
            { type: 'Ready', status: 'False', reason: 'PredictorNotReady' },
          ],
        },
        Job: { active: 1, ready: 1 },
      }),
    );
    expect(target.state).toBe('NotReady');
    expect(target.awaitingKServe).toBeUndefined();
    expect(target.download).toMatchObject({ phase: 'running' });
    expect(target.reason).not.toMatch(/Weights download/);
  });
});
