import { modelManagerContract } from '@model-manager/plugin-model-manager-common';
import { mockCredentials } from '@backstage/backend-test-utils';
import { KubeApiTestServer } from '@model-manager/kube-api-test-server';
import { get, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import request from 'supertest';
import { useModelManager } from '../../__testUtils__/testBackend';
import {
  putWithStatus,
  seedSchedulableCluster,
  vllmWorkloadPod,
} from '@model-manager/test-harness';

const ALICE = mockCredentials.user.header('user:default/alice');
const LLM_ISVC = {
  apiVersion: 'serving.kserve.io/v1alpha2',
  kind: 'LLMInferenceService',
};
const MANAGED = 'app.kubernetes.io/managed-by=model-manager';

/** LISTs of the managed objects (the watch's requests carry `watch`). */
const lists = (kube: KubeApiTestServer) =>
  kube.requests.filter(
    r =>
      r.method === 'GET' &&
      r.query.labelSelector === MANAGED &&
      r.query.watch === undefined,
  );

describe('the fleet from the watch cache', () => {
  let east: KubeApiTestServer;
  beforeAll(async () => {
    east = await KubeApiTestServer.start({ namespaces: ['default', 'models'] });
    seedSchedulableCluster(east);
  }, 120_000);
  const ctx = useModelManager(() => ({
    extraClusters: [{ name: 'east', url: east.url }],
    modelManagerConfig: { fleet: { cacheSeconds: 0, watch: true } },
  }));
  afterAll(() => east?.stop());
  afterEach(() => ctx.kube.faults?.clear());

  const local = () => ctx.kube as KubeApiTestServer;
  const fleet = async () => {
    const res = await request(ctx.server)
      .get('/api/model-manager/fleet')
      .set('Authorization', ALICE);
    expect(res.status).toBe(200);
    return res.body;
  };
  /** Asks for the fleet until `check` holds (the watch delivers a change a moment later). */
  const fleetUntil = async (check: (body: any) => boolean) => {
    for (;;) {
      const body = await fleet();
      if (check(body)) return body;
      await new Promise(resolve => setImmediate(resolve));
    }
  };
  const stateOf = (body: any, model: string, cluster: string) =>
    body.items.find((i: any) => i.model === model && i.cluster === cluster)
      ?.state;
  /** GET /fleet/events: `next()` is the next `fleet` event's block. */
  const openFleetEvents = async () => {
    const { port } = ctx.server.address() as { port: number };
    const controller = new AbortController();
    const res = await fetch(
      `http://127.0.0.1:${port}/api/model-manager/fleet/events`,
      { headers: { Authorization: ALICE }, signal: controller.signal },
    );
    expect(res.status).toBe(200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const next = async () => {
      for (;;) {
        const end = text.indexOf('\n\n');
        if (end >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          if (block.startsWith('event: fleet')) return block;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        text += value;
      }
    };
    return {
      next,
      close: () => controller.abort(),
      contentType: res.headers.get('content-type'),
    };
  };
  const setReady = (status: 'True' | 'False') =>
    local().objects.setStatus(
      { ...LLM_ISVC, name: 'qwen2-5-7b-instruct', namespace: 'models' },
      {
        url: 'http://qwen.models.example',
        conditions: [
          {
            type: 'Ready',
            status,
            lastTransitionTime: new Date().toISOString(),
          },
        ],
      },
    );

  it('answers /fleet and the model status without listing or reading a cluster whose watch is live; a change made elsewhere shows', async () => {
    for (const cluster of ['local', 'east'])
      await request(ctx.server)
        .post('/api/model-manager/models/qwen2-5-7b-instruct/deploy')
        .set('Authorization', ALICE)
        .send({ cluster, namespace: 'models' })
        .expect(200);
    await setReady('True');
    await fleetUntil(
      b => stateOf(b, 'qwen2-5-7b-instruct', 'local') === 'Ready',
    );
    local().resetRequests();
    east.resetRequests();

    const warm = await fleet();
    expect(warm.errors).toEqual([]);
    // Current as of the answer: the watches are live.
    expect(Date.now() - Date.parse(warm.readAt)).toBeLessThan(5_000);
    await setReady('False');
    await fleetUntil(
      b => stateOf(b, 'qwen2-5-7b-instruct', 'local') === 'NotReady',
    );
    expect(lists(local())).toEqual([]);
    expect(lists(east)).toEqual([]);

    // The model status (what the scaffolder's wait for Ready asks) reads the object from the watch.
    await setReady('True');
    await fleetUntil(
      b => stateOf(b, 'qwen2-5-7b-instruct', 'local') === 'Ready',
    );
    local().resetRequests();
    const status = await request(ctx.server)
      .get('/api/model-manager/models/qwen2-5-7b-instruct/status')
      .set('Authorization', ALICE)
      .expect(200);
    expect(
      status.body.items.find((i: any) => i.cluster === 'local').summary.ready,
    ).toBe(true);
    expect(
      local().requests.filter(r =>
        r.path.endsWith('/llminferenceservices/qwen2-5-7b-instruct'),
      ),
    ).toEqual([]);
  });

  it('diagnoses a NotReady target from the watched pods and Warning Events (no LIST of them while live); a pod or Event change re-diagnoses and is pushed', async () => {
    await request(ctx.server)
      .post('/api/model-manager/models/qwen2-5-7b-instruct/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' })
      .expect(200);
    await setReady('False');
    const podName = 'qwen2-5-7b-instruct-kserve-7d9f-abcde';
    // KServe's workload pod, as the kubelet reports it: first the image cannot be pulled...
    const pod = (containerStatus: Record<string, unknown>) =>
      putWithStatus(
        local(),
        vllmWorkloadPod({
          model: 'qwen2-5-7b-instruct',
          namespace: 'models',
          name: podName,
          container: containerStatus,
        }),
      );
    const reason = (b: any) =>
      String(
        b.items.find(
          (i: any) =>
            i.model === 'qwen2-5-7b-instruct' &&
            i.cluster === 'local' &&
            i.namespace === 'models',
        )?.reason ?? '',
      );
    await pod({ state: { waiting: { reason: 'ImagePullBackOff' } } });
    await fleetUntil(b => /ImagePullBackOff|image/i.test(reason(b)));

    // From here the pods and Events come from the watches only.
    local().resetRequests();
    const podOrEventLists = () =>
      local().requests.filter(
        r =>
          r.method === 'GET' &&
          /\/(pods|events)$/.test(r.path) &&
          r.query.watch === undefined,
      );
    const stream = await openFleetEvents();
    // ...then the image is fixed and the engine is killed for memory: no managed object changes.
    let pushed = stream.next();
    await pod({
      restartCount: 2,
      state: { waiting: { reason: 'CrashLoopBackOff' } },
      lastState: { terminated: { reason: 'OOMKilled', exitCode: 137 } },
    });
    const block = await pushed;
    expect(block).toBe('event: fleet\ndata: {"clusters":["local"]}');
    // The event's data is what the contract says a `fleet` event carries.
    const contract = modelManagerContract.fleetEvents.events!;
    expect(block.startsWith(`event: ${contract.name}\n`)).toBe(true);
    expect(
      contract.data.safeParse(JSON.parse(block.split('\ndata: ')[1])).success,
    ).toBe(true);
    // The page's next read shows it at once (no waiting for a cache period).
    expect(reason(await fleet())).toMatch(/OOMKilled|memory/i);

    // A Warning Event about the pod (the kubelet's): the diagnosis reads it from the watch too.
    pushed = stream.next();
    local().objects.put({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${podName}.18a1b2c3d4e5f6a7`, namespace: 'models' },
      involvedObject: {
        apiVersion: 'v1',
        kind: 'Pod',
        name: podName,
        namespace: 'models',
      },
      type: 'Warning',
      reason: 'Failed',
      message:
        'Failed to pull image "vllm/vllm-openai:v9.9.9": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/vllm/vllm-openai:v9.9.9": docker.io/vllm/vllm-openai:v9.9.9: not found',
      count: 1,
      lastTimestamp: new Date().toISOString(),
      source: { component: 'kubelet' },
    });
    expect(await pushed).toBe('event: fleet\ndata: {"clusters":["local"]}');
    expect(reason(await fleet())).toMatch(/image tag does not exist/);

    // Read again with nothing changed: the kept diagnosis (no pod log read again either).
    const before = local().requests.length;
    expect(reason(await fleet())).toMatch(/image tag does not exist/);
    expect(local().requests.slice(before)).toEqual([]);
    expect(podOrEventLists()).toEqual([]);
    stream.close();
  });

  it('pushes a change the watch sees to GET /fleet/events (Server-Sent Events)', async () => {
    await fleet(); // the watches run once the fleet was read
    const stream = await openFleetEvents();
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    const pushed = stream.next();
    await setReady('False');
    expect(await pushed).toBe('event: fleet\ndata: {"clusters":["local"]}');
    // What the page then asks for shows the change.
    expect(stateOf(await fleet(), 'qwen2-5-7b-instruct', 'local')).toBe(
      'NotReady',
    );
    stream.close();
    await setReady('True');
    await fleetUntil(
      b => stateOf(b, 'qwen2-5-7b-instruct', 'local') === 'Ready',
    );
  });

  it('answers a page that revalidates with nothing changed 304, with no body; a change gives another tag', async () => {
    await setReady('True');
    const first = await fleetUntil(
      b => stateOf(b, 'qwen2-5-7b-instruct', 'local') === 'Ready',
    );
    const ask = (path: string, etag?: string) => {
      const r = request(ctx.server).get(path).set('Authorization', ALICE);
      return etag ? r.set('If-None-Match', etag) : r;
    };
    const full = await ask('/api/model-manager/fleet').expect(200);
    expect(full.body.items).toEqual(first.items);
    expect(full.headers['cache-control']).toBe('private, no-cache');
    const etag = full.headers.etag;
    expect(etag).toMatch(/^W\/"fleet-/);
    const again = await ask('/api/model-manager/fleet', etag).expect(304);
    expect(again.text ?? '').toBe('');
    // Another question has its own tag.
    const one = await ask(
      '/api/model-manager/models/qwen2-5-7b-instruct/fleet',
    ).expect(200);
    expect(one.headers.etag).not.toBe(etag);
    await ask(
      '/api/model-manager/models/qwen2-5-7b-instruct/fleet',
      one.headers.etag,
    ).expect(304);

    await setReady('False');
    await fleetUntil(
      b => stateOf(b, 'qwen2-5-7b-instruct', 'local') === 'NotReady',
    );
    const changed = await ask('/api/model-manager/fleet', etag).expect(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(stateOf(changed.body, 'qwen2-5-7b-instruct', 'local')).toBe(
      'NotReady',
    );
    await setReady('True');
    await fleetUntil(
      b => stateOf(b, 'qwen2-5-7b-instruct', 'local') === 'Ready',
    );
  });

  it('sends the kept gzip to a client that takes gzip, the text to one that does not, both the same answer', async () => {
    // Node's http, which does not decode: the bytes as they came.
    const raw = (encoding: string) =>
      new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>(
        (resolve, reject) => {
          const { port } = ctx.server.address() as { port: number };
          get(
            `http://127.0.0.1:${port}/api/model-manager/fleet`,
            { headers: { Authorization: ALICE, 'Accept-Encoding': encoding } },
            res => {
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () =>
                res.statusCode === 200
                  ? resolve({
                      headers: res.headers,
                      body: Buffer.concat(chunks),
                    })
                  : reject(new Error(`status ${res.statusCode}`)),
              );
            },
          ).on('error', reject);
        },
      );
    const gzipped = await raw('gzip, deflate, br');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers['content-type']).toMatch(/^application\/json/);
    expect(gzipped.headers.vary).toMatch(/Accept-Encoding/);
    const plain = await raw('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const decoded = JSON.parse(gunzipSync(gzipped.body).toString());
    const text = JSON.parse(plain.body.toString());
    // Each answer has its own readAt (the clusters are answered by their live watches).
    expect(Date.parse(decoded.readAt)).toBeLessThanOrEqual(
      Date.parse(text.readAt),
    );
    expect({ ...decoded, readAt: 0 }).toEqual({ ...text, readAt: 0 });
    expect(decoded.items.length).toBeGreaterThan(0);
  });

  it('a cluster whose watch is down (and cannot be read) is Unknown; the other still answers', async () => {
    local().faults.inject({ kind: 'down' });
    const body = await fleetUntil(
      b => stateOf(b, 'qwen2-5-7b-instruct', 'local') === 'Unknown',
    );
    expect(body.errors).toEqual([
      {
        cluster: 'local',
        message: expect.stringMatching(/^cluster local could not be read/),
      },
    ]);
    expect(stateOf(body, 'qwen2-5-7b-instruct', 'east')).toBe('NotReady');
    local().faults.clear();
    await fleetUntil(
      b => stateOf(b, 'qwen2-5-7b-instruct', 'local') === 'Ready',
    );
  });
  it('after an undeploy through this backend, reads come from the watch again once it has seen the delete, with no later event', async () => {
    await fleetUntil(
      b => stateOf(b, 'qwen2-5-7b-instruct', 'east') === 'NotReady',
    );
    const undeploy = await request(ctx.server)
      .delete('/api/model-manager/models/qwen2-5-7b-instruct/deployment')
      .query({ cluster: 'east', namespace: 'models' })
      .set('Authorization', ALICE)
      .expect(200);
    expect(undeploy.body.objects).toEqual([
      expect.objectContaining({
        kind: 'LLMInferenceService',
        action: 'deleted',
      }),
    ]);
    // End to end: the undeploy hands the DELETE answers to the watch cache, and the reads stop
    // listing east. Whether the watch's DELETED event comes before or after the undeploy marks its
    // write is not fixed here; FleetWatches.test.ts pins both orders (before: seen by the answered
    // uid, where the old rule would LIST until the next event, a bookmark a minute later).
    for (;;) {
      east.resetRequests();
      const body = await fleet();
      if (
        stateOf(body, 'qwen2-5-7b-instruct', 'east') === undefined &&
        lists(east).length === 0
      )
        break;
      await new Promise(resolve => setImmediate(resolve));
    }
  });
});

describe('the diagnosis while the pods and Events cannot be watched', () => {
  const ctx = useModelManager(() => ({
    modelManagerConfig: { fleet: { cacheSeconds: 0, watch: true } },
  }));
  const local = () => ctx.kube as KubeApiTestServer;

  it('lists them per namespace and reads them again after the cache period, so a pod going from ImagePullBackOff to OOMKilled shows', async () => {
    // The LIST of pods in all namespaces (the diagnosis watches' first request) fails; the
    // per-namespace LISTs answer.
    local().faults.inject({
      kind: 'status',
      code: 500,
      match: { method: 'GET', pathIncludes: '/api/v1/pods' },
      times: Number.POSITIVE_INFINITY,
    });
    await request(ctx.server)
      .post('/api/model-manager/models/qwen2-5-7b-instruct/deploy')
      .set('Authorization', ALICE)
      .send({ cluster: 'local', namespace: 'models' })
      .expect(200);
    await local().objects.setStatus(
      { ...LLM_ISVC, name: 'qwen2-5-7b-instruct', namespace: 'models' },
      {
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            lastTransitionTime: new Date().toISOString(),
          },
        ],
      },
    );
    const pod = (containerStatus: Record<string, unknown>) =>
      putWithStatus(
        local(),
        vllmWorkloadPod({
          model: 'qwen2-5-7b-instruct',
          namespace: 'models',
          name: 'qwen2-5-7b-instruct-kserve-7d9f-abcde',
          container: containerStatus,
        }),
      );
    const reasonUntil = async (pattern: RegExp) => {
      for (;;) {
        const res = await request(ctx.server)
          .get('/api/model-manager/fleet')
          .set('Authorization', ALICE)
          .expect(200);
        const reason = String(
          res.body.items.find(
            (i: any) =>
              i.model === 'qwen2-5-7b-instruct' && i.cluster === 'local',
          )?.reason ?? '',
        );
        if (pattern.test(reason)) return;
        await new Promise(resolve => setImmediate(resolve));
      }
    };
    await pod({ state: { waiting: { reason: 'ImagePullBackOff' } } });
    await reasonUntil(/ImagePullBackOff|image/i);
    await pod({
      restartCount: 2,
      state: { waiting: { reason: 'CrashLoopBackOff' } },
      lastState: { terminated: { reason: 'OOMKilled', exitCode: 137 } },
    });
    await reasonUntil(/OOMKilled|memory/i);
    expect(
      local().requests.some(
        r =>
          r.method === 'GET' &&
          r.path === '/api/v1/namespaces/models/pods' &&
          r.query.watch === undefined,
      ),
    ).toBe(true);
    local().faults.clear();
  });
});
