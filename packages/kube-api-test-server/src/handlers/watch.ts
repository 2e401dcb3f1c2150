/** `?watch=true`: a stream of newline-delimited watch events. */
import http from 'node:http';
import { StatusError } from '../api/errors';
import {
  labelsOf,
  parseFieldSelector,
  parseLabelSelector,
} from '../api/selectors';
import { apiVersionOf, storageKey } from '../registry/types';
import { baseHeaders } from '../server/http';
import { StoreEvent, fromStorage } from '../store/ObjectStore';
import { JsonObject, isObject } from '../util/json';
import { RequestContext } from './context';
import { servedObject } from './codec';

/** How often a watch with `allowWatchBookmarks=true` gets a BOOKMARK (kube-apiserver: 1 min). */
const BOOKMARK_EVERY_MS = 60_000;

/** Starts a watch; returns a function that ends it. */
export function startWatch(
  ctx: RequestContext,
  res: http.ServerResponse,
): () => void {
  const labels = parseLabelSelector(
    ctx.query.get('labelSelector') ?? undefined,
  );
  const fields = parseFieldSelector(
    ctx.query.get('fieldSelector') ?? undefined,
    ctx.rt.selectableFields,
  );
  const ns = ctx.rt.namespaced ? ctx.info.namespace : undefined;
  const matches = (o: JsonObject | undefined) => {
    if (!o) return false;
    const meta = isObject(o.metadata) ? o.metadata : {};
    if (ns && meta.namespace !== ns) return false;
    return labels(labelsOf(o)) && fields(o);
  };
  const rvParam = ctx.query.get('resourceVersion');
  let backlog: StoreEvent[] | undefined = [];
  if (rvParam && rvParam !== '0') {
    const rv = Number(rvParam);
    backlog = Number.isFinite(rv) ? ctx.store.eventsSince(rv) : undefined;
  }

  res.writeHead(200, { ...baseHeaders(), 'Transfer-Encoding': 'chunked' });
  // kube-apiserver sends the headers at once, before any event (apiserver/pkg/endpoints/handlers/
  // watch.go `ServeHTTP`: WriteHeader(200) then flusher.Flush()): a client waiting for the response
  // (client-node's Watch awaits fetch) is not held until the first change.
  res.flushHeaders();
  // Where the watch starts: the version asked for (or the current one), raised by the replayed
  // events (cacheWatcher.processInterval); bookmarks are compared with it.
  let startedAt = Number(
    rvParam && rvParam !== '0' ? rvParam : ctx.store.currentResourceVersion(),
  );
  const send = (type: string, object: unknown) => {
    if (!res.writableEnded) res.write(`${JSON.stringify({ type, object })}\n`);
  };
  let closed = false;
  const key = storageKey(ctx.rt);
  const onEvent = (stored: StoreEvent) => {
    if (stored.key !== key) return;
    // Events of a resource kept in another's storage come in the stored form.
    const e = {
      ...stored,
      object: fromStorage(ctx.rt, stored.object),
      previous: stored.previous && fromStorage(ctx.rt, stored.previous),
    };
    const was = e.previous !== undefined && matches(e.previous);
    const is = matches(e.object);
    if (e.type === 'DELETED') {
      if (is) send('DELETED', servedObject(ctx.rt, e.object));
    } else if (is) {
      send(
        was || e.type === 'ADDED' ? e.type : 'ADDED',
        servedObject(ctx.rt, e.object),
      );
    } else if (was) {
      send('DELETED', servedObject(ctx.rt, e.object));
    }
  };

  if (backlog === undefined) {
    const err = StatusError.gone(
      `too old resource version: ${rvParam} (${ctx.store.currentResourceVersion()})`,
    );
    send('ERROR', err.body);
    res.end();
    return () => undefined;
  }
  if (!rvParam || rvParam === '0') {
    for (const obj of ctx.store.listRaw(ctx.rt, ns))
      if (matches(obj)) send('ADDED', servedObject(ctx.rt, obj));
  } else {
    for (const e of backlog) {
      onEvent(e);
      if (e.key === key) startedAt = Math.max(startedAt, e.resourceVersion);
    }
  }
  const unsubscribe = ctx.store.subscribe(onEvent);
  let timer: NodeJS.Timeout | undefined;
  let bookmarks: NodeJS.Timeout | undefined;
  let lastBookmark: NodeJS.Timeout | undefined;
  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribe();
    clearTimeout(timer);
    clearInterval(bookmarks);
    clearTimeout(lastBookmark);
    if (!res.writableEnded) res.end();
  };
  const timeout = Number(ctx.query.get('timeoutSeconds') ?? 0);
  if (timeout > 0) timer = setTimeout(close, timeout * 1000);
  if (ctx.query.get('allowWatchBookmarks') === 'true') {
    // As kube-apiserver v1.34.9 sent them (test-assets/k8s-reference/responses/28-watch-bookmark.txt):
    // about once a minute, and 2 s before a `timeoutSeconds` deadline, a BOOKMARK with the
    // apiVersion, kind and the resourceVersion of the last change to the resource, but only once
    // that change is newer than where the watch started (the requested version, or the last
    // replayed event's): a watch that saw no change since it started gets none. The cacher's
    // `dispatchEvents` ("Never send a bookmark event if we did not see an event here"),
    // `cacheWatcher.nextBookmarkTime` and `process` (staging/src/k8s.io/apiserver/pkg/storage/cacher).
    const bookmark = () => {
      const rv = ctx.store.lastChangeOf(key);
      if (rv === undefined || rv <= startedAt) return;
      send('BOOKMARK', {
        kind: ctx.rt.kind,
        apiVersion: apiVersionOf(ctx.rt),
        metadata: { resourceVersion: String(rv) },
      });
    };
    bookmarks = setInterval(bookmark, ctx.bookmarkEveryMs ?? BOOKMARK_EVERY_MS);
    if (timeout > 2) lastBookmark = setTimeout(bookmark, (timeout - 2) * 1000);
  }
  res.on('close', close);
  return close;
}
