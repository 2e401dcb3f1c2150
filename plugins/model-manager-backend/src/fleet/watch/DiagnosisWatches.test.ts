import { ConfigReader } from '@backstage/config';
import { mockServices } from '@backstage/backend-test-utils';
import {
  DEFAULT_USERS,
  KubeApiTestServer,
} from '@model-manager/kube-api-test-server';
import { signaturesFor } from '@model-manager/plugin-model-manager-common';
import { putWithStatus, testClustersConfig } from '@model-manager/test-harness';
import { DiagnosisReader } from '../../diagnosis';
import { ClusterRegistry, ServerSideApplier } from '../../kubernetes';
import { MANAGED_SELECTOR } from '../LiveObjectCache';
import { DiagnosisWatches } from './DiagnosisWatches';
import { FleetWatches } from './FleetWatches';
import { WatchedDiagnosis } from './WatchedDiagnosis';

/** May read pods and Events in `team` only: cannot list or watch them in all namespaces. */
const NAMESPACED_TOKEN = 'models-reader-token';

const isvcPod = (
  name: string,
  namespace: string,
  isvc: string,
  waiting: string,
) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace,
    labels: {
      'serving.kserve.io/inferenceservice': isvc,
      component: 'predictor',
    },
    annotations: { 'a-big-one': 'x'.repeat(5000) },
  },
  spec: {
    nodeName: 'node-1',
    containers: [{ name: 'kserve-container', image: 'ovms:1' }],
  },
  status: {
    phase: 'Pending',
    containerStatuses: [
      {
        name: 'kserve-container',
        ready: false,
        restartCount: 0,
        image: 'ovms:1',
        imageID: '',
        state: { waiting: { reason: waiting } },
      },
    ],
  },
});

const event = (
  name: string,
  namespace: string,
  type: string,
  about: string,
) => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name, namespace },
  involvedObject: { apiVersion: 'v1', kind: 'Pod', name: about, namespace },
  type,
  reason: type === 'Warning' ? 'Failed' : 'Pulling',
  message:
    type === 'Warning'
      ? 'Failed to pull image "ovms:1": rpc error: code = NotFound desc = ovms:1: not found'
      : 'Pulling image "ovms:1"',
  count: 1,
  lastTimestamp: '2026-12-02T06:00:00Z',
  source: { component: 'kubelet' },
});

describe('DiagnosisWatches and WatchedDiagnosis', () => {
  let kube: KubeApiTestServer;
  let watches: DiagnosisWatches;
  let fleetWatches: FleetWatches;
  let diagnosis: WatchedDiagnosis;
  let pushed: string[];

  beforeAll(async () => {
    kube = await KubeApiTestServer.start({
      namespaces: ['default', 'models', 'other', 'team'],
      users: {
        ...DEFAULT_USERS,
        [NAMESPACED_TOKEN]: {
          name: 'models-reader',
          rules: [
            {
              namespaces: ['team'],
              verbs: ['get', 'list', 'watch'],
              resources: '*',
              apiGroups: [''],
            },
          ],
        },
      },
    });
  }, 60_000);
  afterAll(() => kube?.stop());
  const setUp = (token?: string) => {
    const clusters = ClusterRegistry.fromConfig(
      new ConfigReader({
        kubernetes: testClustersConfig([
          { name: 'local', url: kube.url, token },
        ]),
      }),
    );
    fleetWatches = FleetWatches.create({
      clusters,
      labelSelector: MANAGED_SELECTOR,
    });
    watches = DiagnosisWatches.create({
      sources: cluster => fleetWatches.sources(cluster),
      backoffMs: 60_000,
    });
    diagnosis = WatchedDiagnosis.create({
      reader: DiagnosisReader.create({
        applier: ServerSideApplier.create({
          clusters,
          logger: mockServices.logger.mock(),
        }),
        watched: watches,
      }),
      watches,
    });
    pushed = [];
    diagnosis.subscribe(cluster => pushed.push(cluster));
  };
  afterEach(() => {
    watches.stop();
    fleetWatches.stop();
  });

  /** Resolves after the next change the watches see in `namespace`. */
  const nextChange = (namespace: string) =>
    new Promise<void>(resolve => {
      const off = watches.subscribe((_c, ns) => {
        if (ns !== namespace) return;
        off();
        resolve();
      });
    });
  const target = {
    model: 'bge',
    server: { kind: 'InferenceService', name: 'bge' },
    objectNames: ['bge'],
    signatures: signaturesFor(),
  };
  const headline = async (namespace = 'models') =>
    (await diagnosis.diagnoseNamespace('local', namespace, [target])).get(
      'bge',
    )!.headline;

  it('watches pods by KServe label and Events by type=Warning, keeps them trimmed, and diagnoses from them without listing; a change re-diagnoses and is pushed, one elsewhere is not', async () => {
    setUp();
    await putWithStatus(
      kube,
      isvcPod('bge-predictor-abc', 'models', 'bge', 'ErrImagePull'),
    );
    await kube.objects.put(
      event('normal.1', 'models', 'Normal', 'bge-predictor-abc'),
    );
    kube.resetRequests();

    expect(await headline()).toMatch(/ErrImagePull/);
    const gets = kube.requests.filter(r => r.method === 'GET');
    // The watches' LISTs (once each, all namespaces; besides discovery): nothing per namespace.
    expect(
      gets
        .filter(
          r => r.query.watch === undefined && /\/(pods|events)$/.test(r.path),
        )
        .map(
          r =>
            `${r.path}?${r.query.labelSelector ?? ''}&${
              r.query.fieldSelector ?? ''
            }`,
        )
        .sort(),
    ).toEqual([
      '/api/v1/events?&type=Warning',
      '/api/v1/pods?app.kubernetes.io/part-of=llminferenceservice&',
      '/api/v1/pods?batch.kubernetes.io/job-name,app.kubernetes.io/managed-by=model-manager&',
      '/api/v1/pods?serving.kserve.io/inferenceservice&',
    ]);
    expect(watches.live('local')).toBe(true);
    // Trimmed: the annotation and the image are not kept; the Normal Event is not there at all.
    const [pod] = watches.pods('local', 'models')!;
    expect(pod.metadata).not.toHaveProperty('annotations');
    expect(JSON.stringify(pod)).not.toContain('ovms:1');
    expect(watches.events('local', 'models')).toEqual([]);

    kube.resetRequests();
    // Read again, nothing changed: kept, nothing read at all.
    expect(await headline()).toMatch(/ErrImagePull/);
    expect(kube.requests).toEqual([]);

    // A Warning Event about the pod: pushed, and the diagnosis reads it.
    let changed = nextChange('models');
    await kube.objects.put(
      event('warn.1', 'models', 'Warning', 'bge-predictor-abc'),
    );
    await changed;
    expect(pushed).toEqual(['local']);
    expect(await headline()).toMatch(/image tag does not exist/);

    // A change in a namespace no kept diagnosis is about: not pushed.
    changed = nextChange('other');
    await putWithStatus(
      kube,
      isvcPod('x-predictor-1', 'other', 'x', 'ErrImagePull'),
    );
    await changed;
    expect(pushed).toEqual(['local']);
    expect(
      kube.requests.filter(
        r => r.method === 'GET' && r.query.watch === undefined,
      ),
    ).toEqual([]);
  });

  it('lists per namespace as before while the watches are not live (no RBAC to watch pods in all namespaces), and keeps nothing', async () => {
    setUp(NAMESPACED_TOKEN);
    await putWithStatus(
      kube,
      isvcPod('bge-predictor-abc', 'team', 'bge', 'ErrImagePull'),
    );
    kube.resetRequests();
    expect(await headline('team')).toMatch(/ErrImagePull/);
    expect(watches.live('local')).toBe(false);
    const namespaced = () =>
      kube.requests.filter(r => r.path === '/api/v1/namespaces/team/pods');
    expect(namespaced()).toHaveLength(1);
    await headline('team');
    expect(namespaced()).toHaveLength(2);
  });
});
