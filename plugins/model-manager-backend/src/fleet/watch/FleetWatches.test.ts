import { mockServices } from '@backstage/backend-test-utils';
import { ConfigReader } from '@backstage/config';
import { KubeConfig } from '@kubernetes/client-node';
import type { RenderedObject } from '@model-manager/plugin-model-manager-common';
import { testClustersConfig } from '@model-manager/test-harness';
import { ClusterRegistry, ServerSideApplier } from '../../kubernetes';
import {
  ADMIN_TOKEN,
  KubeApiTestServer,
} from '@model-manager/kube-api-test-server';
import { MANAGED_SELECTOR } from '../LiveObjectCache';
import { FleetWatches } from './FleetWatches';

const ISVC = {
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
};
const KINDS = [ISVC];

const isvc = (name: string, labels: Record<string, string> = {}) => ({
  ...ISVC,
  metadata: {
    name,
    namespace: 'models',
    labels: { 'app.kubernetes.io/managed-by': 'model-manager', ...labels },
  },
  spec: {
    predictor: {
      model: { modelFormat: { name: 'openvino' }, storageUri: 'pvc://m' },
    },
  },
});

function kubeConfigOf(url: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: url, skipTLSVerify: true }],
    users: [{ name: 'u', token: ADMIN_TOKEN }],
    contexts: [{ name: 'c', cluster: 'c', user: 'u' }],
    currentContext: 'c',
  });
  return kc;
}

/** A cache of one replica over the given clusters (name → API test server). */
function replica(servers: Record<string, KubeApiTestServer>) {
  const watches = FleetWatches.create({
    clusters: { kubeConfig: name => kubeConfigOf(servers[name].url) },
    labelSelector: MANAGED_SELECTOR,
    backoffMs: 5,
    maxBackoffMs: 50,
  });
  /** Resolves once `check` holds, looked at after each change the watches see. */
  const until = async (check: () => boolean) => {
    while (!check())
      await new Promise<void>(resolve => {
        const off = watches.subscribe(() => {
          off();
          resolve();
        });
      });
  };
  const names = (cluster: string) =>
    watches
      .read(cluster, KINDS)
      ?.objects.map(o => `${o.metadata!.name}:${o.metadata!.labels?.v ?? ''}`)
      .sort();
  return { watches, until, names };
}

/** The requests of a server to the InferenceService collection: lists and watches. */
const collectionRequests = (server: KubeApiTestServer) =>
  server.requests
    .filter(r => r.method === 'GET' && r.path.endsWith('/inferenceservices'))
    .map(r =>
      r.query.watch
        ? `WATCH rv=${r.query.resourceVersion} bookmarks=${r.query.allowWatchBookmarks}`
        : 'LIST',
    );

describe('FleetWatches', () => {
  let east: KubeApiTestServer;
  let west: KubeApiTestServer;
  const stops: Array<() => void> = [];

  beforeAll(async () => {
    [east, west] = await Promise.all([
      KubeApiTestServer.start({ namespaces: ['models'] }),
      KubeApiTestServer.start({ namespaces: ['models'] }),
    ]);
  }, 120_000);
  afterEach(() => {
    stops.splice(0).forEach(stop => stop());
    east.faults.clear();
    west.faults.clear();
  });
  afterAll(async () => {
    await Promise.all([east?.stop(), west?.stop()]);
  });

  it('lists once, then follows the watch; objects without the label are not held', async () => {
    east.resetRequests();
    await east.objects.put(isvc('a'));
    const unmanaged = isvc('x');
    unmanaged.metadata.labels = {} as any;
    await east.objects.put(unmanaged);
    const { watches, until, names } = replica({ east });
    stops.push(() => watches.stop());
    expect(watches.read('east', KINDS)).toBeUndefined(); // starting
    await watches.started('east', KINDS);
    expect(names('east')).toEqual(['a:']);
    await east.objects.put(isvc('b'));
    await until(() => names('east')?.length === 2);
    expect(names('east')).toEqual(['a:', 'b:']);
    expect(collectionRequests(east)).toEqual([
      'LIST',
      expect.stringMatching(/^WATCH rv=\d+ bookmarks=true$/),
    ]);
    // Nothing changed: the same read (the fleet built from it is reused).
    expect(watches.read('east', KINDS)).toBe(watches.read('east', KINDS));
  });

  it('a watch that drops resumes from its last resourceVersion: no change lost, none doubled, no re-list', async () => {
    await east.objects.put(isvc('d1'));
    const { watches, until, names } = replica({ east });
    stops.push(() => watches.stop());
    await watches.started('east', KINDS);
    await east.objects.put(isvc('d1', { v: '1' }));
    await until(() => names('east')?.includes('d1:1') ?? false);
    const seen = east.store.currentResourceVersion();
    east.resetRequests();

    east.faults.inject({ kind: 'down' });
    await until(() => watches.status('east')[0].phase === 'down');
    expect(watches.read('east', KINDS)).toBeUndefined();
    // Changes while the watch is down.
    await east.objects.put(isvc('d1', { v: '2' }));
    await east.objects.put(isvc('d2'));
    await east.objects.delete({ ...ISVC, namespace: 'models', name: 'a' });
    east.faults.clear();
    await until(() => watches.read('east', KINDS) !== undefined);
    await until(() => !(names('east') ?? []).includes('a:'));

    const server = east.store
      .list({ ...ISVC, labelSelector: MANAGED_SELECTOR })
      .map(
        o =>
          `${(o.metadata as any).name}:${(o.metadata as any).labels?.v ?? ''}`,
      )
      .sort();
    expect(names('east')).toEqual(server);
    // One watch request resumed where the last one stopped, and nothing was listed again.
    const requests = collectionRequests(east);
    expect(requests).not.toContain('LIST');
    expect(requests.at(-1)).toBe(`WATCH rv=${seen} bookmarks=true`);
  });

  it('a watch answered 410 Gone (history compacted while it was down) lists again', async () => {
    const { watches, until, names } = replica({ east });
    stops.push(() => watches.stop());
    await watches.started('east', KINDS);
    east.faults.inject({ kind: 'down' });
    await until(() => watches.status('east')[0].phase === 'down');
    await east.objects.put(isvc('g1'));
    await east.objects.delete({ ...ISVC, namespace: 'models', name: 'd2' });
    east.store.compact();
    east.resetRequests();
    east.faults.clear();
    await until(
      () =>
        (names('east') ?? []).includes('g1:') &&
        !(names('east') ?? []).includes('d2:'),
    );
    expect(collectionRequests(east)).toEqual([
      expect.stringMatching(/^WATCH rv=\d+ bookmarks=true$/), // answered 410 Gone
      'LIST',
      expect.stringMatching(/^WATCH rv=\d+ bookmarks=true$/),
    ]);
  });

  it('a cluster whose watch fails is not answered (read it the old way); another cluster still is', async () => {
    const { watches, until, names } = replica({ east, west });
    stops.push(() => watches.stop());
    await Promise.all([
      watches.started('east', KINDS),
      watches.started('west', KINDS),
    ]);
    west.faults.inject({ kind: 'down' });
    await until(() => watches.status('west')[0].phase === 'down');
    expect(watches.status('west')[0]).toMatchObject({
      phase: 'down',
      error: expect.any(String),
      attempt: expect.any(Number),
    });
    expect(watches.read('west', KINDS)).toBeUndefined();
    expect(names('east')).toEqual(expect.arrayContaining(['g1:']));
    west.faults.clear();
    await until(() => watches.read('west', KINDS) !== undefined);
  });

  it('a kind read for a verdict only whose watch fails is left out: the cluster still answers, with the rest', async () => {
    const ROUTE = {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      verdictOnly: true,
    };
    const kinds = [ISVC, ROUTE];
    await east.objects.put(isvc('v1'));
    await east.objects.put({
      apiVersion: ROUTE.apiVersion,
      kind: ROUTE.kind,
      metadata: {
        name: 'v1',
        namespace: 'models',
        labels: { 'app.kubernetes.io/managed-by': 'model-manager' },
      },
      spec: {},
    });
    // Every list and watch of HTTPRoutes fails (as a 403 would) until cleared.
    east.faults.inject({
      kind: 'status',
      code: 500,
      match: { pathIncludes: '/httproutes' },
      times: 1_000_000,
    });
    const { watches, until } = replica({ east });
    stops.push(() => watches.stop());
    await watches.started('east', kinds);
    const route = () =>
      watches.status('east').find(w => w.kind.endsWith('/HTTPRoute'))!;
    await until(() => route().phase === 'down');
    const read = watches.read('east', kinds);
    expect(read?.objects.map(o => `${o.kind}/${o.metadata!.name}`)).toContain(
      'InferenceService/v1',
    );
    expect(read?.objects.some(o => o.kind === 'HTTPRoute')).toBe(false);
    expect(read?.unservedKinds).toEqual([]);
    // One of the model's own kinds down: not answered, as before.
    expect(
      watches.read('east', [ISVC, { ...ROUTE, verdictOnly: false }]),
    ).toBeUndefined();
    east.faults.clear();
    await until(
      () =>
        watches
          .read('east', kinds)
          ?.objects.some(o => o.kind === 'HTTPRoute') ?? false,
    );
  });

  it('two replicas each see a change made elsewhere', async () => {
    const one = replica({ east });
    const two = replica({ east });
    stops.push(
      () => one.watches.stop(),
      () => two.watches.stop(),
    );
    await Promise.all([
      one.watches.started('east', KINDS),
      two.watches.started('east', KINDS),
    ]);
    await east.objects.put(isvc('r', { v: 'new' }));
    await Promise.all([
      one.until(() => (one.names('east') ?? []).includes('r:new')),
      two.until(() => (two.names('east') ?? []).includes('r:new')),
    ]);
    expect(one.names('east')).toEqual(two.names('east'));
  });

  it('after a write of this backend, reads go the old way until the watch brings a change', async () => {
    const { watches, until } = replica({ east });
    stops.push(() => watches.stop());
    await watches.started('east', KINDS);
    watches.changed('east');
    expect(watches.read('east', KINDS)).toBeUndefined();
    expect(
      watches.get('east', { ...ISVC, name: 'r', namespace: 'models' }),
    ).toBeUndefined();
    await east.objects.put(isvc('r', { v: 'newer' }));
    await until(() => watches.read('east', KINDS) !== undefined);
    expect(
      watches.get('east', { ...ISVC, name: 'r', namespace: 'models' })?.metadata
        ?.labels?.v,
    ).toBe('newer');
  });
  it('a write whose own events arrived before it was marked is seen by its resourceVersions, not held until the next event', async () => {
    const { watches, until, names } = replica({ east });
    stops.push(() => watches.stop());
    await watches.started('east', KINDS);
    const written = (await east.objects.put(isvc('seen'))) as any;
    await until(() => (names('east') ?? []).includes('seen:'));
    // The stores already hold the object at the answered resourceVersion: seen at once.
    watches.changed('east', { applied: [written] });
    expect(names('east')).toContain('seen:');
    // A resourceVersion the stores have not reached: the old way until they do (or an event).
    const ahead = {
      ...written,
      metadata: { ...written.metadata, resourceVersion: '999999999' },
    };
    watches.changed('east', { applied: [ahead] });
    expect(watches.read('east', KINDS)).toBeUndefined();
    // Without the written objects (a failed write), the old rule: until the next event.
    await east.objects.put(isvc('next'));
    await until(() => (names('east') ?? []).includes('next:'));
    watches.changed('east');
    expect(watches.read('east', KINDS)).toBeUndefined();
  });
  describe('an undeploy of this backend is seen by what the DELETE answered', () => {
    /** The product's applier on cluster `east`: its `deleted` is what the undeploy passes on. */
    const undeploy = (name: string) =>
      ServerSideApplier.create({
        clusters: ClusterRegistry.fromConfig(
          new ConfigReader({
            kubernetes: testClustersConfig([{ name: 'east', url: east.url }]),
          }),
        ),
        logger: mockServices.logger.mock(),
      }).delete('east', [
        {
          ...ISVC,
          name,
          namespace: 'models',
          applyPolicy: 'apply',
          source: 'test',
          manifest: {},
        } as RenderedObject,
      ]);
    /** A replica whose watches on `east` have started (stopped after the test). */
    const startedOnEast = async () => {
      const r = replica({ east });
      stops.push(() => r.watches.stop());
      await r.watches.started('east', KINDS);
      return r;
    };
    const held = (watches: FleetWatches, name: string) =>
      watches.get('east', { ...ISVC, name, namespace: 'models' });

    it('gone from the stores (its DELETED event came before the write was marked): seen at once, not held until the next event', async () => {
      const { watches, until, names } = await startedOnEast();
      await east.objects.put(isvc('gone'));
      await until(() => (names('east') ?? []).includes('gone:'));
      const uid = held(watches, 'gone')?.metadata?.uid;
      const outcome = await undeploy('gone');
      // kube-apiserver answers a Status naming the uid (test-assets/k8s-reference 23-delete.txt).
      expect(outcome.deleted).toEqual([
        expect.objectContaining({ name: 'gone', uid }),
      ]);
      await until(() => !(names('east') ?? []).includes('gone:'));
      watches.changed('east', { deleted: outcome.deleted });
      expect(names('east')).not.toContain('gone:');
    });

    it('still held with the uid it was deleted by: the old way, until the stores drop it', async () => {
      const { watches, until, names } = await startedOnEast();
      await east.objects.put(isvc('kept'));
      await until(() => (names('east') ?? []).includes('kept:'));
      const uid = held(watches, 'kept')!.metadata!.uid!;
      watches.changed('east', {
        deleted: [{ ...ISVC, name: 'kept', namespace: 'models', uid }],
      });
      expect(watches.read('east', KINDS)).toBeUndefined();
      expect(held(watches, 'kept')).toBeUndefined();
    });

    it('created again since (another uid): seen', async () => {
      const { watches, until, names } = await startedOnEast();
      await east.objects.put(isvc('again'));
      await until(() => (names('east') ?? []).includes('again:'));
      const first = held(watches, 'again')!.metadata!.uid!;
      await east.objects.delete({
        ...ISVC,
        name: 'again',
        namespace: 'models',
      });
      await east.objects.put(isvc('again', { v: '2' }));
      await until(() => (names('east') ?? []).includes('again:2'));
      expect(held(watches, 'again')!.metadata!.uid).not.toBe(first);
      watches.changed('east', {
        deleted: [{ ...ISVC, name: 'again', namespace: 'models', uid: first }],
      });
      expect(names('east')).toContain('again:2');
    });

    it('held by a finalizer (the DELETE answered the object): seen once the stores hold it at that resourceVersion', async () => {
      const { watches, until, names } = await startedOnEast();
      const object = isvc('final');
      (object.metadata as any).finalizers = ['serving.kserve.io/test'];
      await east.objects.put(object);
      await until(() => (names('east') ?? []).includes('final:'));
      const outcome = await undeploy('final');
      const [deleted] = outcome.deleted;
      expect(deleted.resourceVersion).toMatch(/^\d+$/);
      await until(
        () =>
          held(watches, 'final')?.metadata?.resourceVersion ===
          deleted.resourceVersion,
      );
      expect(held(watches, 'final')?.metadata?.deletionTimestamp).toBeTruthy();
      watches.changed('east', { deleted: [deleted] });
      expect(names('east')).toContain('final:');
      // An answered resourceVersion the stores have not reached: the old way.
      watches.changed('east', {
        deleted: [{ ...deleted, resourceVersion: '999999999' }],
      });
      expect(watches.read('east', KINDS)).toBeUndefined();
      await east.objects.delete({
        ...ISVC,
        name: 'final',
        namespace: 'models',
      });
    });
  });
});
