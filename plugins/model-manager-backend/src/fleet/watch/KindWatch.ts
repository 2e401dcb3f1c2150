import type {
  KubernetesListObject,
  KubernetesObject,
  ListWatch,
  Watch,
} from '@kubernetes/client-node';
import { clientNode } from '../../kubernetes/clientNode';

/** Where a watch stands: its store answers for the cluster only while `live`. */
export type KindWatchState =
  | { phase: 'starting' }
  | { phase: 'live' }
  | { phase: 'unserved' }
  | { phase: 'down'; error: string; since: number; attempt: number };

/** How one kind is listed and watched on one cluster (see `kindClient.ts`). */
export interface KindSource {
  /** `/apis/<group>/<version>/<plural>` (all namespaces), undefined when the kind is not served. */
  path(): Promise<string | undefined>;
  /** Every object of the kind with the selectors, all pages; the list's resourceVersion. */
  list(
    path: string,
    selectors: { labelSelector: string; fieldSelector?: string },
  ): Promise<KubernetesListObject<KubernetesObject>>;
  /** The client-node `Watch` of the cluster (its KubeConfig: server, TLS, token). */
  watch: Pick<Watch, 'watch'>;
}

export type KindWatchOptions = {
  source: KindSource;
  labelSelector: string;
  /** A field selector too (e.g. `type=Warning` on Events); the list and the watch both send it. */
  fieldSelector?: string;
  /**
   * What of each object is kept (default: all of it), applied to listed and watched objects
   * alike before the store holds them: keeps memory bounded for kinds that churn (pods, Events).
   */
  transform?: (object: KubernetesObject) => KubernetesObject;
  /**
   * Called after each change of the store (add, update, delete, re-list: with the object) and of
   * the state (without).
   */
  onChange: (object?: KubernetesObject) => void;
  /** Called when a watch event (or bookmark) arrives: the store has caught up to it. */
  onEvent?: (type: string) => void;
  /** First retry delay after an error (doubles up to `maxBackoffMs`, with jitter). Default 1 s. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** How often a kind the cluster does not serve is looked up again. Default 5 min. */
  unservedRecheckMs?: number;
  /**
   * How long `started()` waits for the first LIST and WATCH. Past it, readers go on without the
   * store (they LIST, as while a watch is down) and the watch keeps trying: a proxy that holds a
   * watch's answer back (kube-apiserver sends the headers at once, a buffering proxy may not
   * until the first event) must not stall every request that waits for it. Default 10 s.
   */
  startWaitMs?: number;
  random?: () => number;
  now?: () => number;
};

/**
 * One kind of one cluster, kept by `@kubernetes/client-node`'s `ListWatch` (what `makeInformer`
 * builds): a LIST, then a WATCH from the list's resourceVersion, resumed from the last
 * resourceVersion seen when the server ends it, and listed again when the server answers
 * `410 Gone` (client-node 1.4.0 dist/cache.js `doneHandler`/`watchHandler`).
 *
 * What this adds around it, because client-node 1.4.0 does not do it (dist/cache.js, watch.js):
 * - `allowWatchBookmarks=true`: its ListWatch never asks for bookmarks, so an idle watch's
 *   resourceVersion ages and the next resume can get a 410 (and a full re-list) though nothing
 *   changed; client-go's reflector asks for them for this reason.
 * - `timeoutSeconds` between 5 and 10 minutes, as client-go's reflector (`minWatchTimeout`):
 *   client-node sets no timeout, so a connection that died silently would never be noticed.
 * - Retry with exponential backoff: on any error but 410, ListWatch calls its error handlers and
 *   stops for good.
 * - A state (`live` only once the list is in and the watch is open) so readers know when the
 *   store stands for the cluster, and a stop that holds: ListWatch opens a watch after `stop()`
 *   when the stop came during its LIST.
 */
export class KindWatch {
  private informer?: ListWatch<KubernetesObject>;
  private current: KindWatchState = { phase: 'starting' };
  private stopped = false;
  private attempt = 0;
  private downSince?: number;
  private timer?: NodeJS.Timeout;
  private path?: string;
  private firstOutcome?: Promise<void>;
  private settleFirst?: () => void;

  private constructor(
    private readonly options: Required<
      Omit<KindWatchOptions, 'fieldSelector'>
    > &
      Pick<KindWatchOptions, 'fieldSelector'>,
  ) {}

  /** client-node's ListWatch on the kind's path, once discovery gave it. */
  private informerFor(path: string): ListWatch<KubernetesObject> {
    if (this.informer) return this.informer;
    const { ListWatch: ListWatchClass } = clientNode();
    const watch = {
      watch: this.openWatch.bind(this),
    } as unknown as Watch;
    const informer = new ListWatchClass(
      path,
      watch,
      () => this.list(path),
      false,
      this.options.labelSelector,
      this.options.fieldSelector,
    );
    const changed = (object: KubernetesObject) => this.options.onChange(object);
    informer.on('add', changed);
    informer.on('update', changed);
    informer.on('delete', changed);
    informer.on('error', err => this.failed(err));
    this.informer = informer;
    return informer;
  }

  /** Starts listing and watching; the promise settles after the first list's outcome. */
  static start(options: KindWatchOptions): KindWatch {
    const w = new KindWatch({
      ...options,
      backoffMs: options.backoffMs ?? 1000,
      maxBackoffMs: options.maxBackoffMs ?? 30_000,
      unservedRecheckMs: options.unservedRecheckMs ?? 300_000,
      startWaitMs: options.startWaitMs ?? 10_000,
      random: options.random ?? Math.random,
      now: options.now ?? Date.now,
      onEvent: options.onEvent ?? (() => undefined),
      transform: options.transform ?? (o => o),
    });
    w.firstOutcome = new Promise(resolve => {
      w.settleFirst = resolve;
    });
    setTimeout(() => w.settleFirst?.(), w.options.startWaitMs).unref();
    void w.begin();
    return w;
  }

  get state(): KindWatchState {
    return this.current;
  }

  /**
   * Settles once the first LIST (and watch) succeeded or failed, or the kind is not served, or
   * after `startWaitMs` (the state then still `starting`).
   */
  started(): Promise<void> {
    return this.firstOutcome!;
  }

  /** The objects held (the cluster's, while `live`), of one namespace when given. */
  objects(namespace?: string): ReadonlyArray<KubernetesObject> {
    return this.informer?.list(namespace) ?? [];
  }

  get(name: string, namespace?: string): KubernetesObject | undefined {
    return this.informer?.get(name, namespace);
  }

  /** The resourceVersion the next watch resumes from ('' before the first list, or after a 410). */
  resourceVersion(): string {
    return this.informer?.latestResourceVersion() ?? '';
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    void this.informer?.stop();
    this.settleFirst?.();
  }

  private async begin() {
    if (this.stopped) return;
    try {
      this.path ??= await this.options.source.path();
    } catch (e) {
      this.failed(e);
      return;
    }
    if (this.stopped) return;
    if (this.path === undefined) {
      // The CRD is not installed: nothing to watch; look again later (it may be installed).
      this.setState({ phase: 'unserved' });
      this.settleFirst?.();
      this.timer = setTimeout(
        () => void this.begin(),
        this.options.unservedRecheckMs,
      ).unref();
      return;
    }
    await this.informerFor(this.path).start();
  }

  private async list(
    path: string,
  ): Promise<KubernetesListObject<KubernetesObject>> {
    // A re-list (first list, or after 410 Gone): the store is not the cluster's until it is in.
    if (this.current.phase !== 'starting') this.setState({ phase: 'starting' });
    const list = await this.options.source.list(path, {
      labelSelector: this.options.labelSelector,
      ...(this.options.fieldSelector
        ? { fieldSelector: this.options.fieldSelector }
        : {}),
    });
    return { ...list, items: list.items.map(this.options.transform) };
  }

  /** ListWatch's `Watch.watch`, with bookmarks, a timeout, the state, and a stop that holds. */
  private async openWatch(
    path: string,
    query: Record<string, unknown>,
    callback: (type: string, object: any, raw: any) => void,
    done: (err: any) => void,
  ): Promise<AbortController> {
    if (this.stopped) return new AbortController();
    let failed = false;
    const controller = await this.options.source.watch.watch(
      path,
      {
        ...query,
        allowWatchBookmarks: true,
        timeoutSeconds: Math.floor(300 * (1 + this.options.random())),
      },
      (type, object, raw) => {
        // A BOOKMARK or ERROR carries no object to keep; ListWatch reads its resourceVersion.
        callback(
          type,
          type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED'
            ? this.options.transform(object)
            : object,
          raw,
        );
        this.options.onEvent(type);
      },
      err => {
        if (err) failed = true;
        done(err);
      },
    );
    if (this.stopped) controller.abort();
    else if (!failed) {
      this.attempt = 0;
      this.downSince = undefined;
      this.setState({ phase: 'live' });
      this.settleFirst?.();
    }
    return controller;
  }

  private failed(err: unknown) {
    if (this.stopped) return;
    this.attempt++;
    this.setState({
      phase: 'down',
      error: (err as Error)?.message ?? String(err),
      since: (this.downSince ??= this.options.now()),
      attempt: this.attempt,
    });
    this.settleFirst?.();
    const delay = Math.min(
      this.options.maxBackoffMs,
      this.options.backoffMs * 2 ** (this.attempt - 1),
    );
    // Jitter (as client-go's wait.Backoff): replicas that lost the same cluster do not retry together.
    this.timer = setTimeout(
      () => void this.begin(),
      delay * (0.5 + this.options.random() / 2),
    ).unref();
  }

  private setState(state: KindWatchState) {
    this.current = state;
    this.options.onChange();
  }
}
