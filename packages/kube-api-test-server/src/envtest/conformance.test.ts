/**
 * Conformance: one list of requests sent to the test double AND to a real kube-apiserver
 * (v1.34.9, KubeEnvtest). For each case the status codes, reasons and the fields the product reads
 * must be the same, or the difference is listed in KNOWN_DIFFERENCES with why (and then both
 * answers must still be exactly what the entry says, so a fix on either side shows up here).
 *
 * Runs in `npm run test:real-kube` (MODEL_MANAGER_TEST_KUBE=real); skipped otherwise, with the
 * reason printed.
 */
import { KubeApiTestServer } from '../KubeApiTestServer';
import { ADMIN_TOKEN, DEFAULT_USERS, KSERVE_DEV_TOKEN } from '../defaults';
import { TestRequest, TestResponse, request } from '../testing/httpClient';
import { envtestAvailability } from './assets';
import {
  EnvtestConnection,
  KubeEnvtest,
  RESTRICTED_TOKEN,
} from './KubeEnvtest';
import { kubeTargetKind } from './startKubeTarget';

const NS = 'conformance';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const JOBS = `/apis/batch/v1/namespaces/${NS}/jobs`;
const ISVC = `/apis/serving.kserve.io/v1beta1/namespaces/${NS}/inferenceservices`;
const APPLY = 'application/apply-patch+yaml';

type Send = (req: TestRequest) => Promise<TestResponse>;
/** What a case observed: only what the product reads (codes, reasons, fields). */
type Observation = Record<string, unknown>;
type Case = { name: string; run: (send: Send) => Promise<Observation> };

const isvc = (name: string, model: Record<string, unknown> = {}) => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name, namespace: NS },
  spec: {
    predictor: {
      model: {
        modelFormat: { name: 'openvino' },
        storageUri: 'pvc://m',
        ...model,
      },
    },
  },
});

const job = (name: string, image: string) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name, namespace: NS },
  spec: {
    template: {
      spec: {
        restartPolicy: 'Never',
        containers: [{ name: 'download', image }],
      },
    },
  },
});

const apply = (
  path: string,
  body: object,
  manager = 'model-manager',
  extra = '',
): TestRequest => ({
  method: 'PATCH',
  path: `${path}?fieldManager=${manager}${extra}`,
  body,
  contentType: APPLY,
});

/** The error fields the product reads from a Status (code, reason, message, causes). */
const statusOf = (res: TestResponse) => ({
  status: res.status,
  reason: res.json?.reason,
  message: res.json?.message,
  causes: res.json?.details?.causes?.map((c: any) => ({
    reason: c.reason,
    field: c.field,
  })),
});

const managers = (obj: any) =>
  (obj.metadata.managedFields ?? []).map((m: any) => ({
    manager: m.manager,
    operation: m.operation,
    subresource: m.subresource,
  }));

/** Reads a watch stream until `count` events have arrived (bounded by timeoutSeconds). */
async function watchEvents(
  send: Send,
  path: string,
  count: number,
  act: () => Promise<void>,
): Promise<Array<{ type: string; name: string }>> {
  const started = await send({ path });
  const rv = started.json.metadata.resourceVersion;
  const events: Array<{ type: string; name: string }> = [];
  const streamed = send({
    path: `${path}${
      path.includes('?') ? '&' : '?'
    }watch=true&resourceVersion=${rv}&timeoutSeconds=3`,
  });
  await act();
  const res = await streamed;
  for (const line of res.text.split('\n').filter(Boolean)) {
    const event = JSON.parse(line);
    events.push({ type: event.type, name: event.object.metadata.name });
    if (events.length === count) break;
  }
  return events;
}

const CASES: Case[] = [
  {
    name: 'apply creates (201), an identical re-apply changes nothing, a change bumps generation',
    run: async send => {
      const created = await send(apply(`${ISVC}/a`, isvc('a')));
      const again = await send(apply(`${ISVC}/a`, isvc('a')));
      const changed = await send(
        apply(`${ISVC}/a`, isvc('a', { storageUri: 'pvc://n' })),
      );
      return {
        codes: [created.status, again.status, changed.status],
        sameRvOnReapply:
          created.json.metadata.resourceVersion ===
          again.json.metadata.resourceVersion,
        generations: [created, again, changed].map(
          r => r.json.metadata.generation,
        ),
        managers: managers(changed.json),
        storageUri: changed.json.spec.predictor.model.storageUri,
      };
    },
  },
  {
    name: 'dry run: nothing stored; the answer shows the change',
    run: async send => {
      const created = await send(apply(`${ISVC}/dry`, isvc('dry')));
      const dry = await send(
        apply(
          `${ISVC}/dry`,
          isvc('dry', { storageUri: 'pvc://dry' }),
          'model-manager',
          '&dryRun=All',
        ),
      );
      const stored = await send({ path: `${ISVC}/dry` });
      return {
        code: dry.status,
        answerStorageUri: dry.json.spec.predictor.model.storageUri,
        storedStorageUri: stored.json.spec.predictor.model.storageUri,
        answerKeepsResourceVersion:
          dry.json.metadata.resourceVersion ===
          created.json.metadata.resourceVersion,
        storedUnchanged:
          stored.json.metadata.resourceVersion ===
          created.json.metadata.resourceVersion,
      };
    },
  },
  {
    name: 'a field owned by another manager: 409 Conflict naming it; force takes it over',
    run: async send => {
      await send(apply(`${ISVC}/c`, isvc('c')));
      const conflict = await send(
        apply(`${ISVC}/c`, isvc('c', { storageUri: 'pvc://other' }), 'kubectl'),
      );
      const forced = await send(
        apply(
          `${ISVC}/c`,
          isvc('c', { storageUri: 'pvc://other' }),
          'kubectl',
          '&force=true',
        ),
      );
      return {
        conflict: statusOf(conflict),
        forced: forced.status,
        // kube-apiserver orders managedFields by operation, then by the second of each entry's
        // time, then by manager name (sortEncodedManagedFields in apimachinery's
        // managedfields/internal/managedfields.go): two servers disagree on the order whenever
        // the two applies fall into different seconds on one and the same second on the other.
        managersAfterForce: managers(forced.json).sort((a: any, b: any) =>
          String(a.manager).localeCompare(String(b.manager)),
        ),
      };
    },
  },
  {
    name: "a Pod put again without restartPolicy: defaulted on the update too (Always), and its status is not the main resource's",
    run: async send => {
      const PODS = `/api/v1/namespaces/${NS}/pods`;
      const pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'defaulted', namespace: NS },
        spec: { containers: [{ name: 'main', image: 'busybox:1.36' }] },
        status: { phase: 'Running' },
      };
      const created = await send({ method: 'POST', path: PODS, body: pod });
      const replaced = await send({
        method: 'PUT',
        path: `${PODS}/defaulted`,
        body: {
          ...pod,
          metadata: {
            ...pod.metadata,
            resourceVersion: created.json.metadata.resourceVersion,
          },
        },
      });
      await send({
        method: 'DELETE',
        path: `${PODS}/defaulted?gracePeriodSeconds=0`,
      });
      return {
        codes: [created.status, replaced.status],
        restartPolicy: [created, replaced].map(r => r.json.spec?.restartPolicy),
        phase: [created, replaced].map(r => r.json.status?.phase),
      };
    },
  },
  {
    name: 'a Job: spec.template is immutable',
    run: async send => {
      const created = await send(apply(`${JOBS}/dl`, job('dl', 'busybox:1')));
      const changed = await send(apply(`${JOBS}/dl`, job('dl', 'busybox:2')));
      return {
        created: created.status,
        changed: changed.status,
        reason: changed.json?.reason,
        causes: statusOf(changed).causes,
      };
    },
  },
  {
    name: 'list pages with continue',
    run: async send => {
      for (const i of [1, 2, 3, 4, 5]) {
        await send({
          method: 'POST',
          path: CM,
          body: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `page-${i}`, labels: { paged: 'yes' } },
          },
        });
      }
      const pages: Array<{ names: string[]; remaining?: number }> = [];
      let token = '';
      do {
        const res = await send({
          path: `${CM}?labelSelector=paged%3Dyes&limit=2${
            token ? `&continue=${encodeURIComponent(token)}` : ''
          }`,
        });
        pages.push({
          names: res.json.items.map((o: any) => o.metadata.name),
          remaining: res.json.metadata.remainingItemCount,
        });
        token = res.json.metadata.continue ?? '';
      } while (token && pages.length < 10);
      return { pages };
    },
  },
  {
    name: 'watch: added, modified, deleted',
    run: async send => {
      const path = `${CM}?labelSelector=watched%3Dyes`;
      const body = (data: string) => ({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'w', labels: { watched: 'yes' } },
        data: { v: data },
      });
      const events = await watchEvents(send, path, 3, async () => {
        await send(apply(`${CM}/w`, body('1')));
        await send(apply(`${CM}/w`, body('2')));
        await send({ method: 'DELETE', path: `${CM}/w` });
      });
      return { events };
    },
  },
  {
    // What the fleet's diagnosis watches (fleet/watch/DiagnosisWatches.ts): Events of all
    // namespaces by a field selector on `type` (here with the namespace too, so that Events of
    // other suites on the shared server do not count).
    name: 'watch Events of all namespaces by fieldSelector type=Warning: Normal ones are left out, a Warning that turns Normal is DELETED',
    run: async send => {
      const EVENTS = `/api/v1/namespaces/${NS}/events`;
      const event = (name: string, type: string, count: number) => ({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace: NS },
        involvedObject: {
          apiVersion: 'v1',
          kind: 'Pod',
          name: 'p',
          namespace: NS,
        },
        type,
        reason: type === 'Warning' ? 'Failed' : 'Pulling',
        message: 'Failed to pull image "x:1": not found',
        count,
        source: { component: 'kubelet' },
      });
      const events = await watchEvents(
        send,
        `/api/v1/events?fieldSelector=type%3DWarning%2CinvolvedObject.namespace%3D${NS}`,
        3,
        async () => {
          await send({
            method: 'POST',
            path: EVENTS,
            body: event('normal', 'Normal', 1),
          });
          await send({
            method: 'POST',
            path: EVENTS,
            body: event('warn', 'Warning', 1),
          });
          await send({
            method: 'PUT',
            path: `${EVENTS}/warn`,
            body: event('warn', 'Warning', 2),
          });
          await send({
            method: 'PUT',
            path: `${EVENTS}/warn`,
            body: event('warn', 'Normal', 3),
          });
        },
      );
      await send({ method: 'DELETE', path: `${EVENTS}/normal` });
      return { events };
    },
  },
  {
    // The diagnosis's pod watches: a label that exists (any value), all namespaces.
    name: 'watch pods of all namespaces by an existence label selector: a pod without the label is left out, one whose label is taken off is DELETED',
    run: async send => {
      const PODS = `/api/v1/namespaces/${NS}/pods`;
      const pod = (name: string, labels: Record<string, string>) => ({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: NS, labels },
        spec: { containers: [{ name: 'main', image: 'x:1' }] },
      });
      const events = await watchEvents(
        send,
        `/api/v1/pods?labelSelector=serving.kserve.io%2Finferenceservice`,
        2,
        async () => {
          await send({
            method: 'POST',
            path: PODS,
            body: pod('other', { app: 'x' }),
          });
          await send({
            method: 'POST',
            path: PODS,
            body: pod('predictor', {
              'serving.kserve.io/inferenceservice': 'm',
            }),
          });
          // The label taken off: it leaves the watch's selection, a DELETED.
          await send({
            method: 'PATCH',
            path: `${PODS}/predictor`,
            contentType: 'application/merge-patch+json',
            body: {
              metadata: {
                labels: { 'serving.kserve.io/inferenceservice': null },
              },
            },
          });
        },
      );
      for (const name of ['other', 'predictor'])
        await send({
          method: 'DELETE',
          path: `${PODS}/${name}?gracePeriodSeconds=0`,
        });
      return { events };
    },
  },
  {
    name: 'watch: allowWatchBookmarks, nothing changes, a short timeoutSeconds: no event before the end (a BOOKMARK comes about once a minute)',
    run: async send => {
      const listed = await send({ path: ISVC });
      const rv = listed.json.metadata.resourceVersion;
      const res = await send({
        path: `${ISVC}?watch=true&resourceVersion=${rv}&timeoutSeconds=4&allowWatchBookmarks=true`,
      });
      const events = res.text
        .split('\n')
        .filter(Boolean)
        .map(line => JSON.parse(line));
      return {
        status: res.status,
        events: events.map(e => ({
          type: e.type,
          keys: Object.keys(e.object).sort(),
          metadataKeys: Object.keys(e.object.metadata).sort(),
          apiVersion: e.object.apiVersion,
          kind: e.object.kind,
          resourceVersionIsNumber: /^\d+$/.test(
            e.object.metadata.resourceVersion,
          ),
        })),
      };
    },
  },
  {
    name: 'watch: from a resourceVersion older than the history kept, an ERROR event 410 Expired, then the end',
    run: async send => {
      const res = await send({
        path: `${ISVC}?watch=true&resourceVersion=1&timeoutSeconds=4`,
      });
      const events = res.text
        .split('\n')
        .filter(Boolean)
        .map(line => JSON.parse(line));
      return {
        status: res.status,
        events: events.map(e => ({
          type: e.type,
          kind: e.object.kind,
          status: e.object.status,
          reason: e.object.reason,
          code: e.object.code,
          // The versions differ between servers; the wording must not.
          message: String(e.object.message).replace(/\d+/g, 'N'),
        })),
      };
    },
  },
  {
    name: 'status subresource: status ignored on the object, only status on /status',
    run: async send => {
      const created = await send(
        apply(`${ISVC}/s`, { ...isvc('s'), status: { url: 'http://ignored' } }),
      );
      const status = await send({
        method: 'PATCH',
        path: `${ISVC}/s/status?fieldManager=kserve-controller`,
        body: {
          status: { url: 'http://s.example' },
          spec: { predictor: { model: { storageUri: 'pvc://ignored' } } },
        },
        contentType: 'application/merge-patch+json',
      });
      return {
        createdStatus: created.json.status ?? null,
        code: status.status,
        url: status.json.status.url,
        storageUri: status.json.spec.predictor.model.storageUri,
        generation: status.json.metadata.generation,
        managers: managers(status.json),
      };
    },
  },
  {
    name: 'a new Node gets the not-ready:NoSchedule taint (TaintNodesByCondition admission)',
    run: async send => {
      const created = await send({
        method: 'POST',
        path: '/api/v1/nodes',
        body: {
          apiVersion: 'v1',
          kind: 'Node',
          metadata: { name: 'conformance-node' },
          spec: {},
        },
        contentType: 'application/json',
      });
      const deleted = await send({
        method: 'DELETE',
        path: '/api/v1/nodes/conformance-node',
      });
      return {
        created: created.status,
        taints: created.json?.spec?.taints,
        deleted: deleted.status,
      };
    },
  },
  {
    name: 'discovery of what the product applies',
    run: async send => {
      const kserve = await send({ path: '/apis/serving.kserve.io/v1beta1' });
      const core = await send({ path: '/api/v1' });
      const pick = (res: TestResponse, names: string[]) =>
        (res.json.resources as any[])
          .filter(r => names.includes(r.name))
          .map(r => ({
            name: r.name,
            kind: r.kind,
            namespaced: r.namespaced,
            verbs: [...r.verbs].sort(),
          }));
      return {
        kserve: pick(kserve, ['inferenceservices', 'inferenceservices/status']),
        core: pick(core, [
          'configmaps',
          'persistentvolumeclaims',
          'namespaces',
        ]),
      };
    },
  },
  {
    name: 'a Pending PersistentVolumeClaim cannot be resized',
    run: async send => {
      const pvc = (storage: string) => ({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'weights' },
        spec: {
          accessModes: ['ReadWriteOnce'],
          resources: { requests: { storage } },
        },
      });
      const created = await send(
        apply(
          `/api/v1/namespaces/${NS}/persistentvolumeclaims/weights`,
          pvc('1Gi'),
        ),
      );
      const grown = await send(
        apply(
          `/api/v1/namespaces/${NS}/persistentvolumeclaims/weights`,
          pvc('2Gi'),
        ),
      );
      return {
        created: created.status,
        phase: created.json.status?.phase,
        grown: statusOf(grown).status,
        reason: statusOf(grown).reason,
        causes: statusOf(grown).causes,
      };
    },
  },
  {
    name: 'an object too large for etcd',
    run: async send => {
      const res = await send(
        apply(
          `${ISVC}/big`,
          isvc('big', {
            env: [{ name: 'BIG', value: 'x'.repeat(1_800_000) }],
          }),
        ),
      );
      return { status: res.status, reason: res.json?.reason };
    },
  },
  {
    name: 'RBAC: refusals name the user, verb, resource and namespace; no token is 401',
    run: async send => {
      const restricted = await send({ path: CM, token: RESTRICTED_TOKEN });
      const dev = await send({
        ...apply('/api/v1/namespaces/demo/configmaps/x', {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'x' },
        }),
        token: KSERVE_DEV_TOKEN,
      });
      const anonymous = await send({ path: CM, token: '' });
      return {
        restricted: statusOf(restricted),
        dev: statusOf(dev),
        anonymous: { status: anonymous.status, reason: anonymous.json?.reason },
      };
    },
  },
  {
    name: 'a namespace that does not exist',
    run: async send => {
      const res = await send(
        apply('/api/v1/namespaces/nope/configmaps/x', {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'x' },
        }),
      );
      return statusOf(res);
    },
  },
];

/**
 * Where the double answers differently from kube-apiserver, by case name: both answers as they
 * are today, and why. Remove an entry when the double is fixed (the test then fails until it is).
 */
const KNOWN_DIFFERENCES: Record<
  string,
  { why: string; double: Observation; real: Observation }
> = {};

const availability =
  kubeTargetKind() === 'real' ? envtestAvailability() : undefined;
const suite = availability?.run ? describe : describe.skip;
if (!availability?.run) {
  process.stdout.write(
    `conformance (double vs real kube-apiserver) skipped: ${
      availability
        ? availability.reason
        : 'runs in `npm run test:real-kube` (MODEL_MANAGER_TEST_KUBE=real)'
    }\n`,
  );
}

suite('the test double answers as kube-apiserver v1.34.9 does', () => {
  let double: KubeApiTestServer;
  let real: KubeEnvtest;

  beforeAll(async () => {
    const shared = process.env.MODEL_MANAGER_TEST_KUBE_ENVTEST;
    real = shared
      ? KubeEnvtest.attach(JSON.parse(shared) as EnvtestConnection)
      : await KubeEnvtest.start({ namespaces: ['default'] });
    await real.createNamespace(NS);
    await real.clean([NS, 'demo']);
    double = await KubeApiTestServer.start({
      namespaces: ['default', 'demo', NS],
      users: { ...DEFAULT_USERS, [RESTRICTED_TOKEN]: { name: 'restricted' } },
    });
  }, 300_000);

  afterAll(async () => {
    await double?.stop();
    await real?.stop();
  });

  it.each(CASES.map(c => ({ ...c, known: KNOWN_DIFFERENCES[c.name] })))(
    '$name',
    async ({ run, known }) => {
      const onDouble = await run(req =>
        request(double.url, { token: ADMIN_TOKEN, ...req }),
      );
      const onReal = await run(req =>
        request(real.url, { token: ADMIN_TOKEN, ca: real.caPem, ...req }),
      );
      if (known) {
        expect({ double: onDouble, real: onReal }).toEqual({
          double: known.double,
          real: known.real,
        });
      } else {
        expect(onDouble).toEqual(onReal);
      }
    },
  );
});
