/**
 * A TEST DOUBLE of kube-apiserver over real HTTP: discovery, CRUD, server-side
 * apply with field ownership, validation against CRD schemas, RBAC and fault
 * injection. It is not a Kubernetes API server.
 */
import http from 'node:http';
import net from 'node:net';
import { StatusError } from './api/errors';
import { DEFAULT_USERS } from './defaults';
import { HandlerResult, RequestContext } from './handlers/context';
import { dispatch } from './handlers/dispatch';
import { PodLogRef, PodLogs, handlePodLog } from './handlers/podLog';
import {
  asPartialMetadata,
  metadataTarget,
  partialContentType,
} from './handlers/partialMetadata';
import { startWatch } from './handlers/watch';
import { CelRuleReport, ResourceRegistry } from './registry/ResourceRegistry';
import { defaultCrdDir } from './registry/crdLoader';
import { AuthResult, Authorizer } from './server/auth';
import { FaultInjector } from './server/faults';
import { Connections } from './server/connections';
import { readBody, sendError, sendJson, baseHeaders } from './server/http';
import { checkRequestBodySize } from './store/sizeLimits';
import { handleNonResource } from './server/nonResource';
import { RequestInfo, parseRequestInfo } from './server/requestInfo';
import { ObjectStore } from './store/ObjectStore';
import { admittedPut } from './store/admittedPut';
import { FaultSpec, KubeApiTestServerOptions, RequestRecord } from './types';
import { KubeObjects, KubeTarget } from './envtest/KubeTarget';
import { JsonObject } from './util/json';

type RequestFault = Exclude<FaultSpec, { kind: 'down' }>;

export function faultError(
  fault: RequestFault & { kind: 'status' },
  info: RequestInfo,
): StatusError {
  switch (fault.code) {
    case 429:
      return StatusError.tooManyRequests(fault.retryAfterSeconds ?? 1);
    case 503:
      return StatusError.serviceUnavailable(fault.retryAfterSeconds);
    case 409:
      if (info.type === 'resource') {
        return StatusError.modified(
          { group: info.group, resource: info.resource },
          info.name ?? '',
        );
      }
      return StatusError.of({
        code: 409,
        reason: 'Conflict',
        message: 'injected conflict',
      });
    default: {
      const err = StatusError.internal('injected fault');
      if (fault.retryAfterSeconds)
        err.headers['Retry-After'] = String(fault.retryAfterSeconds);
      return err;
    }
  }
}

const warnedCelRules = new Set<string>();

/**
 * Says once per process which CRD rules the double cannot evaluate, so a gap
 * is visible at start-up and not only when an object reaches the rule.
 */
function warnAboutCelRules(reports: CelRuleReport[]): void {
  const fresh = reports.filter(r => {
    const key = `${r.crd}|${r.path}|${r.expression}`;
    if (warnedCelRules.has(key)) return false;
    warnedCelRules.add(key);
    return true;
  });
  if (fresh.length === 0) return;
  process.emitWarning(
    `kube-api-test-server cannot evaluate ${
      fresh.length
    } x-kubernetes-validations expression(s); objects that reach them get a 500:\n${fresh
      .map(r => `  ${r.crd} ${r.path}: ${r.expression} (${r.error})`)
      .join('\n')}`,
    { code: 'KUBE_API_TEST_SERVER_CEL' },
  );
}

export class KubeApiTestServer implements KubeTarget {
  readonly kind = 'double' as const;
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** Direct access to stored objects (bypasses HTTP, validation and RBAC). */
  readonly store: ObjectStore;
  /** The store, asynchronously: the same calls work against a real server (`RealKubeTarget`). */
  readonly objects: KubeObjects;
  /** Fault injection for the following requests. */
  readonly faults: FaultInjector;
  /**
   * How often a watch with `allowWatchBookmarks=true` gets a BOOKMARK. kube-apiserver: about once a
   * minute; a test may shorten it rather than wait.
   */
  watchBookmarkEveryMs = 60_000;

  private readonly log: RequestRecord[] = [];
  private readonly podLogs = PodLogs.create();
  private readonly connections = new Connections(() => this.faults.down);
  private readonly watches = new Set<() => void>();

  private constructor(
    private readonly server: http.Server,
    private readonly registry: ResourceRegistry,
    private readonly auth: Authorizer,
    private readonly clock: () => Date,
    store: ObjectStore,
    port: number,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    this.store = store;
    this.objects = {
      get: async ref => store.get(ref),
      put: async object => admittedPut(registry, store, object),
      setStatus: async (ref, status, opts) =>
        store.setStatus(ref, status, opts),
      delete: async ref => store.delete(ref),
    };
    this.faults = FaultInjector.create({
      onDown: () => this.connections.closeAll(),
    });
  }

  /** Starts a server on 127.0.0.1 (any free port unless `port` is given). */
  static async start(
    opts: KubeApiTestServerOptions = {},
  ): Promise<KubeApiTestServer> {
    const registry = ResourceRegistry.create({
      crdDir: opts.crdDir ?? defaultCrdDir(),
    });
    warnAboutCelRules(registry.celRuleReports());
    const clock = opts.clock ?? (() => new Date());
    const store = ObjectStore.create({ registry, clock });
    for (const ns of opts.namespaces ?? ['default']) store.createNamespace(ns);
    const auth = Authorizer.create({
      users: opts.users ?? DEFAULT_USERS,
      impersonatable: opts.impersonatable,
      anonymous: opts.anonymous ?? 'unauthenticated',
    });
    const server = http.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
    });
    const port = (server.address() as net.AddressInfo).port;
    const instance = new KubeApiTestServer(
      server,
      registry,
      auth,
      clock,
      store,
      port,
    );
    server.on('connection', socket =>
      instance.connections.onConnection(socket as net.Socket),
    );
    server.on('request', (req, res) => {
      instance.onRequest(req, res).catch(err => {
        sendError(
          res,
          StatusError.internal(
            err instanceof Error ? err.message : String(err),
          ),
        );
      });
    });
    return instance;
  }

  /** TCP connections accepted since start (a client that keeps its connections alive opens few). */
  get connectionCount(): number {
    return this.connections.count;
  }

  /** CRD validation expressions this double cannot evaluate (empty for the CRDs in `test-assets/crds`). */
  get celRuleReports(): CelRuleReport[] {
    return this.registry.celRuleReports();
  }

  /** Number of requests received since start (or the last {@link resetRequests}). */
  get requestCount(): number {
    return this.log.length;
  }

  /** The requests received, oldest first. */
  get requests(): RequestRecord[] {
    return this.log.map(r => ({ ...r, query: { ...r.query } }));
  }

  resetRequests(): void {
    this.log.length = 0;
  }

  /**
   * Sets the text `GET .../pods/{pod}/log` answers for a container (`previous`: its last
   * terminated instance), what the container runtime would hold. Whether it is served follows
   * the pod's spec and status, as the kubelet decides (see handlers/podLog.ts).
   */
  setPodLog(ref: PodLogRef, text: string): void {
    this.podLogs.set(ref, text);
  }

  /** Closes every connection and watch and stops listening. */
  async stop(): Promise<void> {
    for (const close of this.watches) close();
    this.connections.closeAll();
    await new Promise<void>(resolve => this.server.close(() => resolve()));
  }

  private async onRequest(
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): Promise<void> {
    if (this.faults.down) {
      req.socket.destroy();
      return;
    }
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://localhost');
    const record: RequestRecord = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
    };
    this.log.push(record);
    res.on('finish', () => {
      record.status = res.statusCode;
    });
    const info = parseRequestInfo(method, url.pathname, url.searchParams);

    let auth: AuthResult | StatusError;
    try {
      auth = this.auth.authenticate(req);
      record.user = auth.user.name;
      if (auth.impersonated) record.impersonatedUser = auth.impersonated;
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
      auth = e;
    }

    const fault = this.faults.take(method, req.url ?? '/');
    if (fault?.kind === 'drop') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'latency')
      await new Promise(resolve => setTimeout(resolve, fault.ms));
    const body = await readBody(req);
    if (fault?.kind === 'status') {
      sendError(res, faultError(fault, info));
      return;
    }
    if (auth instanceof StatusError) {
      sendError(res, auth);
      return;
    }
    if (!this.auth.allowed(auth.effective, info)) {
      sendError(res, this.auth.forbidden(auth.effective, info));
      return;
    }
    try {
      if (method !== 'GET') checkRequestBodySize(body);
      this.handle(req, res, info, url, body);
    } catch (e) {
      if (e instanceof StatusError) sendError(res, e);
      else throw e;
    }
  }

  private handle(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    info: RequestInfo,
    url: URL,
    body: Buffer,
  ) {
    if (info.type === 'nonResource') {
      const result = handleNonResource(
        this.registry,
        info.path,
        this.url.replace('http://', ''),
      );
      if (result === 'ok') {
        res.writeHead(200, {
          ...baseHeaders(),
          'Content-Type': 'text/plain; charset=utf-8',
        });
        res.end('ok');
      } else {
        sendJson(res, result.code, result.body, result.headers);
      }
      return;
    }
    const rt = this.registry.lookup(info.group, info.version, info.resource);
    if (!rt) throw StatusError.notFoundPath();
    const ctx: RequestContext = {
      registry: this.registry,
      store: this.store,
      rt,
      info,
      query: url.searchParams,
      body,
      contentType: (req.headers['content-type'] ?? '')
        .split(';')[0]
        .trim()
        .toLowerCase(),
      userAgent: req.headers['user-agent'] ?? '',
      now: this.clock(),
      bookmarkEveryMs: this.watchBookmarkEveryMs,
    };
    if (info.verb === 'watch') {
      const close = startWatch(ctx, res);
      this.watches.add(close);
      res.on('close', () => this.watches.delete(close));
      return;
    }
    if (info.subresource === 'log' && rt.subresources?.includes('log')) {
      const text = handlePodLog(ctx, this.podLogs);
      res.writeHead(200, {
        ...baseHeaders(),
        'Content-Type': 'text/plain',
        'Content-Length': String(Buffer.byteLength(text)),
      });
      res.end(text);
      return;
    }
    const result: HandlerResult = dispatch(ctx);
    const metadataOnly = metadataTarget(req.headers.accept);
    if (
      metadataOnly &&
      (info.verb === 'get' || info.verb === 'list') &&
      !info.subresource
    ) {
      sendJson(
        res,
        result.code,
        asPartialMetadata(
          metadataOnly,
          info.verb === 'list',
          result.body as JsonObject,
        ),
        {
          ...result.headers,
          'Content-Type': partialContentType(metadataOnly),
        },
      );
      return;
    }
    sendJson(res, result.code, result.body, result.headers);
  }
}
