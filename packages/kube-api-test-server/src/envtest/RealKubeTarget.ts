/**
 * The real kube-apiserver of {@link KubeEnvtest}, behind a small TLS proxy that records the
 * requests and injects faults exactly as the test double does, so the product's integration
 * suites (which count requests and inject 503s) run unchanged against the real server. Every
 * answer other than an injected fault is the real server's, byte for byte.
 *
 * Objects are reached through {@link KubeTarget.objects} (asynchronous, over HTTP as `admin`);
 * the double's synchronous `store` does not exist here and throws naming the replacement.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { ADMIN_TOKEN, KSERVE_DEV_TOKEN } from '../defaults';
import { faultError } from '../KubeApiTestServer';
import { sendError } from '../server/http';
import { parseRequestInfo } from '../server/requestInfo';
import { FaultInjector } from '../server/faults';
import { Connections } from '../server/connections';
import { ObjectStore } from '../store/ObjectStore';
import { RequestRecord } from '../types';
import {
  KubeEnvtest,
  PORTAL_SA_TOKEN,
  PORTAL_SA_USER,
  RESTRICTED_TOKEN,
} from './KubeEnvtest';
import { KubeObjects, KubeTarget } from './KubeTarget';
import { httpObjects } from './httpObjects';

const USERS: Record<string, string> = {
  [ADMIN_TOKEN]: 'admin',
  [KSERVE_DEV_TOKEN]: 'kserve-dev',
  [RESTRICTED_TOKEN]: 'restricted',
  [PORTAL_SA_TOKEN]: PORTAL_SA_USER,
};

export class RealKubeTarget implements KubeTarget {
  readonly kind = 'real' as const;
  /** The proxy, `https://127.0.0.1:<port>` (the real server's certificate). */
  readonly url: string;
  readonly faults: FaultInjector;
  readonly objects: KubeObjects;
  private readonly log: RequestRecord[] = [];
  private readonly connections = new Connections(() => this.faults.down);

  private constructor(
    private readonly server: https.Server,
    private readonly upstream: KubeEnvtest,
    private readonly agent: https.Agent,
    private readonly ownsUpstream: boolean,
  ) {
    const port = (server.address() as net.AddressInfo).port;
    this.url = `https://127.0.0.1:${port}`;
    this.faults = FaultInjector.create({
      onDown: () => this.connections.closeAll(),
    });
    this.objects = httpObjects(req => upstream.request(req));
  }

  /** A proxy in front of `upstream`; `ownsUpstream`: stop() stops the real server too. */
  static async start(
    upstream: KubeEnvtest,
    opts: { ownsUpstream?: boolean } = {},
  ): Promise<RealKubeTarget> {
    const server = https.createServer({
      cert: upstream.servingCertPem,
      key: upstream.servingKeyPem,
    });
    await new Promise<void>(resolve =>
      server.listen(0, '127.0.0.1', () => resolve()),
    );
    const agent = new https.Agent({ keepAlive: true, ca: upstream.caPem });
    const target = new RealKubeTarget(
      server,
      upstream,
      agent,
      opts.ownsUpstream ?? false,
    );
    server.on('connection', socket =>
      target.connections.onConnection(socket as net.Socket),
    );
    server.on('request', (req, res) => target.forward(req, res));
    return target;
  }

  get store(): ObjectStore {
    throw new Error(
      "kube.store is the test double's in-memory store; against the real server (MODEL_MANAGER_TEST_KUBE=real) use `await kube.objects.get/put/setStatus/delete`",
    );
  }

  get connectionCount(): number {
    return this.connections.count;
  }

  get requestCount(): number {
    return this.log.length;
  }

  get requests(): RequestRecord[] {
    return this.log.map(r => ({ ...r, query: { ...r.query } }));
  }

  resetRequests(): void {
    this.log.length = 0;
  }

  async stop(): Promise<void> {
    this.connections.closeAll();
    this.agent.destroy();
    await new Promise<void>(resolve => this.server.close(() => resolve()));
    if (this.ownsUpstream) await this.upstream.stop();
  }

  private async forward(req: http.IncomingMessage, res: http.ServerResponse) {
    if (this.faults.down) {
      req.socket.destroy();
      return;
    }
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://localhost');
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const record: RequestRecord = {
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      user: token ? USERS[token] : undefined,
    };
    const impersonated = req.headers['impersonate-user'];
    if (typeof impersonated === 'string')
      record.impersonatedUser = impersonated;
    this.log.push(record);
    const fault = this.faults.take(method, req.url ?? '/');
    if (fault?.kind === 'drop') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'latency')
      await new Promise(resolve => setTimeout(resolve, fault.ms));
    if (fault?.kind === 'status') {
      req.resume();
      const info = parseRequestInfo(method, url.pathname, url.searchParams);
      record.status = fault.code;
      sendError(res, faultError(fault, info));
      return;
    }
    const headers = { ...req.headers };
    delete headers.host;
    delete headers.connection;
    const upstream = https.request(
      new URL(req.url ?? '/', this.upstream.url),
      { method, headers, agent: this.agent },
      answer => {
        record.status = answer.statusCode ?? 502;
        res.writeHead(record.status, answer.headers);
        // Send the headers now, as kube-apiserver does: node holds them until the first body
        // chunk, and a WATCH from a resourceVersion with nothing new sends none for minutes
        // (client-node's Watch resolves on the headers; without this it never did).
        res.flushHeaders();
        answer.pipe(res);
      },
    );
    upstream.on('error', () => req.socket.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }
}
