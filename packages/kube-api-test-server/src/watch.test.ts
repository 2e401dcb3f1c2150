/** `?watch=true` streams. */
import http from 'node:http';
import { ADMIN_TOKEN, KubeApiTestServer } from './index';
import { request } from './testing/httpClient';
import { normalizeVolatile, readResponse } from './testing/reference';

const ISVC =
  '/apis/serving.kserve.io/v1beta1/namespaces/demo/inferenceservices';

interface WatchEvent {
  type: string;
  object: any;
}

/** Opens a watch; `next(n)` resolves with the next n events. */
function openWatch(url: string, path: string) {
  const events: WatchEvent[] = [];
  const waiters: Array<() => void> = [];
  let buffer = '';
  let ended = false;
  let markOpened: () => void = () => undefined;
  const opened = new Promise<void>(resolve => {
    markOpened = resolve;
  });
  const req = http.get(
    `${url}${path}`,
    { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` }, agent: false },
    res => {
      markOpened();
      res.setEncoding('utf8');
      res.on('data', chunk => {
        buffer += chunk;
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) events.push(JSON.parse(line));
        waiters.splice(0).forEach(w => w());
      });
      res.on('end', () => {
        ended = true;
        waiters.splice(0).forEach(w => w());
      });
    },
  );
  let taken = 0;
  const next = async (n: number): Promise<WatchEvent[]> => {
    while (events.length < taken + n && !ended)
      await new Promise<void>(resolve => waiters.push(resolve));
    const out = events.slice(taken, taken + n);
    taken += out.length;
    return out;
  };
  const done = async () => {
    while (!ended) await new Promise<void>(resolve => waiters.push(resolve));
  };
  return {
    next,
    close: () => req.destroy(),
    done,
    isEnded: () => ended,
    /** Resolves once the headers are in (the server sends them when the watch starts). */
    opened: () => opened,
  };
}

const isvc = (name: string, labels: Record<string, string>) => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name, namespace: 'demo', labels },
  spec: {
    predictor: {
      model: { modelFormat: { name: 'openvino' }, storageUri: 'pvc://m' },
    },
  },
});

describe('watch', () => {
  let server: KubeApiTestServer;
  const apply = (name: string, labels: Record<string, string>) =>
    request(server.url, {
      method: 'PATCH',
      path: `${ISVC}/${name}?fieldManager=t`,
      token: ADMIN_TOKEN,
      body: isvc(name, labels),
      contentType: 'application/apply-patch+yaml',
    });

  beforeAll(async () => {
    server = await KubeApiTestServer.start({ namespaces: ['demo'] });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('sends existing objects, then changes, filtered by label selector', async () => {
    await apply('a', { team: 'x' });
    const w = openWatch(
      server.url,
      `${ISVC}?watch=true&labelSelector=team%3Dx`,
    );
    expect(
      (await w.next(1)).map(e => [e.type, e.object.metadata.name]),
    ).toEqual([['ADDED', 'a']]);
    await apply('b', { team: 'y' });
    await apply('a', { team: 'x', more: '1' });
    await apply('a', { team: 'y' });
    await request(server.url, {
      method: 'DELETE',
      path: `${ISVC}/b`,
      token: ADMIN_TOKEN,
    });
    await apply('c', { team: 'x' });
    const events = await w.next(3);
    expect(events.map(e => [e.type, e.object.metadata.name])).toEqual([
      ['MODIFIED', 'a'],
      ['DELETED', 'a'],
      ['ADDED', 'c'],
    ]);
    expect(events[0].object.kind).toBe('InferenceService');
    w.close();
  });

  it('replays changes after a resourceVersion and honours timeoutSeconds', async () => {
    const first = await apply('d', {});
    const rv = first.json.metadata.resourceVersion;
    await apply('d', { changed: 'yes' });
    const w = openWatch(
      server.url,
      `${ISVC}?watch=1&resourceVersion=${rv}&fieldSelector=metadata.name%3Dd&timeoutSeconds=1`,
    );
    const [event] = await w.next(1);
    expect(event.type).toBe('MODIFIED');
    expect(event.object.metadata.labels).toEqual({ changed: 'yes' });
    await w.done();
    expect(w.isEnded()).toBe(true);
  });

  it('sends a BOOKMARK with the last change once one came after the start, about once a minute and 2 s before the deadline, only when allowed', async () => {
    const changed = await apply('e', { bookmark: 'yes' });
    const path = `${ISVC}?watch=1&resourceVersion=${changed.json.metadata.resourceVersion}`;
    server.watchBookmarkEveryMs = 100; // kube-apiserver: about once a minute
    // Nothing changed since the start: no bookmark.
    const idle = openWatch(
      server.url,
      `${path}&allowWatchBookmarks=true&timeoutSeconds=1`,
    );
    await idle.done();
    expect(await idle.next(1)).toEqual([]);

    const allowed = openWatch(server.url, `${path}&allowWatchBookmarks=true`);
    const plain = openWatch(server.url, `${path}&timeoutSeconds=1`);
    await Promise.all([allowed.opened(), plain.opened()]);
    const again = await apply('e', { bookmark: 'again' });
    const [modified, bookmark] = await allowed.next(2);
    server.watchBookmarkEveryMs = 60_000;
    expect(modified.type).toBe('MODIFIED');
    // As kube-apiserver sent it (test-assets/k8s-reference/responses/28-watch-bookmark.txt).
    expect(normalizeVolatile(bookmark)).toEqual(
      normalizeVolatile(readResponse('28-watch-bookmark.txt').body),
    );
    expect(bookmark.object.metadata.resourceVersion).toBe(
      again.json.metadata.resourceVersion,
    );
    allowed.close();
    await plain.done();
    expect((await plain.next(5)).map(e => e.type)).toEqual(['MODIFIED']);

    // 2 s before a timeoutSeconds deadline (here the minute has not come).
    const deadline = openWatch(
      server.url,
      `${path}&allowWatchBookmarks=true&timeoutSeconds=3`,
    );
    await deadline.opened();
    const last = await apply('e', { bookmark: 'last' });
    await deadline.done();
    expect((await deadline.next(5)).map(e => e.type)).toEqual([
      'MODIFIED', // replayed: 'again'
      'MODIFIED',
      'BOOKMARK',
    ]);
    expect(last.json.metadata.resourceVersion).toBeDefined();
  });

  it('answers a watch from a compacted resourceVersion with an ERROR event 410 Gone and ends it', async () => {
    const before = await apply('f', {});
    const rv = Number(before.json.metadata.resourceVersion);
    await apply('f', { after: 'compaction' });
    server.store.compact();
    const w = openWatch(server.url, `${ISVC}?watch=1&resourceVersion=${rv}`);
    const [event] = await w.next(1);
    // As kube-apiserver answered (test-assets/k8s-reference/responses/27-...): the versions differ.
    const recorded = readResponse('27-watch-too-old-resource-version.txt');
    const versionsOut = (e: any) => ({
      ...e,
      object: { ...e.object, message: e.object.message.replace(/\d+/g, 'N') },
    });
    expect(versionsOut(event)).toEqual(versionsOut(recorded.body));
    await w.done();
    // From the version at the compaction on, the watch resumes.
    const resumed = openWatch(
      server.url,
      `${ISVC}?watch=1&resourceVersion=${server.store.currentResourceVersion()}&fieldSelector=metadata.name%3Df`,
    );
    await apply('f', { after: 'resume' });
    const [next] = await resumed.next(1);
    expect(next.type).toBe('MODIFIED');
    resumed.close();
  });
});
