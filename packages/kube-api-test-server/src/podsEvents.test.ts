/** Pods with their status, core/v1 and events.k8s.io/v1 Events with field selectors, and pods/log. */
import { ADMIN_TOKEN, KubeApiTestServer } from './index';
import { TestRequest, TestResponse, clientFor } from './testing/httpClient';

const PODS = '/api/v1/namespaces/demo/pods';
const EVENTS = '/api/v1/namespaces/demo/events';
const EVENTS_V1 = '/apis/events.k8s.io/v1/namespaces/demo/events';

const pod = (name: string, containers = ['main'], nodeName = 'node-1') => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { 'serving.kserve.io/inferenceservice': 'qwen' } },
  spec: {
    nodeName,
    containers: containers.map(c => ({ name: c, image: 'vllm:1' })),
  },
});

const status = (containerStatuses: unknown[]) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  status: { phase: 'Running', containerStatuses },
});

const restarted = {
  name: 'main',
  restartCount: 3,
  containerID: 'containerd://b',
  state: { waiting: { reason: 'CrashLoopBackOff' } },
  lastState: {
    terminated: {
      reason: 'OOMKilled',
      exitCode: 137,
      containerID: 'containerd://a',
    },
  },
};

describe('pods, events and pod logs', () => {
  let server: KubeApiTestServer;
  let call: (req: TestRequest) => Promise<TestResponse>;

  beforeAll(async () => {
    server = await KubeApiTestServer.start({ namespaces: ['demo'] });
    call = clientFor(server.url, ADMIN_TOKEN);
    for (const p of [
      pod('crashing'),
      pod('pulling'),
      pod('two', ['main', 'side']),
      pod('unscheduled', ['main'], ''),
    ]) {
      const res = await call({ method: 'POST', path: PODS, body: p });
      expect(res.status).toBe(201);
    }
    const set = async (name: string, cs: unknown[]) =>
      expect(
        (
          await call({
            method: 'PUT',
            path: `${PODS}/${name}/status`,
            body: { ...status(cs), metadata: { name } },
          })
        ).status,
      ).toBe(200);
    await set('crashing', [restarted]);
    await set('pulling', [
      { name: 'main', state: { waiting: { reason: 'ImagePullBackOff' } } },
    ]);
    await set('two', [
      { name: 'main', containerID: 'c://1', state: { running: {} } },
      { name: 'side', containerID: 'c://2', state: { running: {} } },
    ]);
    server.setPodLog(
      { namespace: 'demo', pod: 'crashing', container: 'main', previous: true },
      'loading\nallocating KV cache\ntorch.OutOfMemoryError: CUDA out of memory\n',
    );
    server.setPodLog(
      { namespace: 'demo', pod: 'crashing', container: 'main' },
      'loading\n',
    );
    server.setPodLog(
      { namespace: 'demo', pod: 'two', container: 'side' },
      'side car\n',
    );
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('lists pods by label and by status.phase', async () => {
    const byLabel = await call({
      path: `${PODS}?labelSelector=serving.kserve.io/inferenceservice%3Dqwen`,
    });
    expect(byLabel.json.items).toHaveLength(4);
    const running = await call({
      path: `${PODS}?fieldSelector=status.phase%3DRunning`,
    });
    expect(running.json.items.map((p: any) => p.metadata.name)).toEqual([
      'crashing',
      'pulling',
      'two',
    ]);
  });

  it.each([
    [
      'the previous instance',
      '?previous=true',
      'loading\nallocating KV cache\ntorch.OutOfMemoryError: CUDA out of memory\n',
    ],
    [
      'its last lines',
      '?previous=true&tailLines=1',
      'torch.OutOfMemoryError: CUDA out of memory\n',
    ],
    ['no lines', '?previous=true&tailLines=0', ''],
    ['the current instance', '', 'loading\n'],
  ])(
    'serves %s of a restarted container as text',
    async (_what, query, text) => {
      const res = await call({ path: `${PODS}/crashing/log${query}` });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain');
      expect(res.text).toBe(text);
    },
  );

  it.each([
    [
      'a pod that does not exist',
      'gone/log',
      404,
      'NotFound',
      'pods "gone" not found',
    ],
    [
      'previous of a container that never restarted',
      'two/log?container=main&previous=true',
      400,
      'BadRequest',
      'previous terminated container "main" in pod "two" not found',
    ],
    [
      'a pod with two containers and none named',
      'two/log',
      400,
      'BadRequest',
      'a container name must be specified for pod two, choose one of: [main side]',
    ],
    [
      'a container the pod does not have',
      'two/log?container=nope',
      400,
      'BadRequest',
      'container nope is not valid for pod two',
    ],
    [
      'a container waiting for its image',
      'pulling/log',
      400,
      'BadRequest',
      'container "main" in pod "pulling" is waiting to start: trying and failing to pull image',
    ],
    [
      'a negative tailLines',
      'crashing/log?tailLines=-1',
      422,
      'Invalid',
      'PodLogOptions "crashing" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
    ],
  ])(
    'answers %s like kube-apiserver',
    async (_what, path, code, reason, message) => {
      const res = await call({ path: `${PODS}/${path}` });
      expect(res.status).toBe(code);
      expect(res.json).toEqual(
        expect.objectContaining({ kind: 'Status', code, reason, message }),
      );
    },
  );

  it('serves the named container of a pod with two', async () => {
    const res = await call({ path: `${PODS}/two/log?container=side` });
    expect(res.text).toBe('side car\n');
  });

  it('answers an unscheduled pod with an empty log', async () => {
    const res = await call({ path: `${PODS}/unscheduled/log` });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
  });

  it('lets RBAC refuse pods/log apart from pods', async () => {
    const limited = await KubeApiTestServer.start({
      namespaces: ['demo'],
      users: {
        reader: {
          name: 'reader',
          rules: [
            {
              verbs: ['get', 'list'],
              apiGroups: [''],
              resources: ['pods'],
              namespaces: '*',
            },
          ],
        },
      },
    });
    try {
      const asReader = clientFor(limited.url, 'reader');
      expect((await asReader({ path: PODS })).status).toBe(200);
      const res = await asReader({ path: `${PODS}/x/log` });
      expect(res.status).toBe(403);
      expect(res.json.message).toBe(
        'pods "x" is forbidden: User "reader" cannot get resource "pods/log" in API group "" in the namespace "demo"',
      );
    } finally {
      await limited.stop();
    }
  });

  describe('events', () => {
    const coreEvent = (
      name: string,
      kind: string,
      obj: string,
      reason: string,
    ) => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name },
      involvedObject: { kind, name: obj, namespace: 'demo', apiVersion: 'v1' },
      reason,
      message: `${reason} of ${obj}`,
      type: 'Warning',
      source: { component: 'default-scheduler' },
    });

    beforeAll(async () => {
      for (const e of [
        coreEvent('a.1', 'Pod', 'crashing', 'BackOff'),
        coreEvent('b.1', 'Pod', 'pulling', 'Failed'),
        coreEvent('c.1', 'InferenceService', 'crashing', 'InternalError'),
      ])
        expect(
          (await call({ method: 'POST', path: EVENTS, body: e })).status,
        ).toBe(201);
      const v1 = {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: 'd.1' },
        regarding: { kind: 'Pod', name: 'pulling', namespace: 'demo' },
        reason: 'FailedScheduling',
        note: '0/3 nodes are available: 3 Insufficient cpu.',
        type: 'Warning',
        reportingController: 'default-scheduler',
        reportingInstance: 'default-scheduler-1',
        action: 'Scheduling',
        eventTime: '2026-12-01T00:00:00.000000Z',
      };
      expect(
        (await call({ method: 'POST', path: EVENTS_V1, body: v1 })).status,
      ).toBe(201);
    });

    it.each([
      ['involvedObject.name=crashing', ['a.1', 'c.1']],
      ['involvedObject.kind=Pod,involvedObject.name=crashing', ['a.1']],
      ['reason=Failed', ['b.1']],
      ['source=default-scheduler,type=Warning', ['a.1', 'b.1', 'c.1']],
      ['involvedObject.namespace=other', []],
    ])('selects core/v1 Events by %s', async (selector, names) => {
      const res = await call({
        path: `${EVENTS}?fieldSelector=${encodeURIComponent(selector)}`,
      });
      expect(res.status).toBe(200);
      expect(res.json.kind).toBe('EventList');
      expect(res.json.items.map((e: any) => e.metadata.name)).toEqual(names);
    });

    it('serves the same Events at events.k8s.io/v1, under their new names, selected by regarding.name', async () => {
      const res = await call({
        path: `${EVENTS_V1}?fieldSelector=regarding.name%3Dpulling`,
      });
      expect(
        res.json.items.map((e: any) => [
          e.metadata.name,
          e.note,
          e.regarding?.kind,
          e.deprecatedCount,
          e.message,
        ]),
      ).toEqual([
        ['b.1', 'Failed of pulling', 'Pod', undefined, undefined],
        [
          'd.1',
          '0/3 nodes are available: 3 Insufficient cpu.',
          'Pod',
          undefined,
          undefined,
        ],
      ]);
    });

    it('serves an Event written at events.k8s.io/v1 at core/v1 too (one storage, as kube-apiserver)', async () => {
      const res = await call({
        path: `${EVENTS}?fieldSelector=involvedObject.name%3Dpulling,reason%3DFailedScheduling`,
      });
      expect(res.json.items).toEqual([
        expect.objectContaining({
          message: '0/3 nodes are available: 3 Insufficient cpu.',
          involvedObject: { kind: 'Pod', name: 'pulling', namespace: 'demo' },
          reportingComponent: 'default-scheduler',
        }),
      ]);
      expect(res.json.items[0].note).toBeUndefined();
    });

    it('refuses a field the kind does not select on', async () => {
      const res = await call({
        path: `${EVENTS}?fieldSelector=regarding.name%3Dx`,
      });
      expect(res.status).toBe(400);
      expect(res.json.message).toMatch(
        /"regarding.name" is not a known field selector/,
      );
    });
  });
});
