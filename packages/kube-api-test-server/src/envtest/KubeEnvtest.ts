/**
 * A REAL kube-apiserver (with its etcd) on 127.0.0.1 for tests and benchmarks, started the way
 * controller-runtime's envtest starts one (sigs.k8s.io/controller-runtime/pkg/envtest): the
 * binaries from `KUBEBUILDER_ASSETS`, free ports, TLS, token authentication, RBAC. It then installs
 * the CRDs the product renders (the same CRD files the test double serves) and creates the
 * namespaces. No controllers run: objects are stored and validated, nothing reconciles them.
 */
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_TOKEN, KSERVE_DEV_TOKEN } from '../defaults';
import { defaultCrdDir, loadCrds } from '../registry/crdLoader';
import { TestRequest, TestResponse, request } from '../testing/httpClient';
import { JsonObject } from '../util/json';
import { EnvtestAssets, findEnvtestAssets } from './assets';
import { makePki } from './pki';

/** Bearer token of `restricted`: an authenticated user without any RBAC grant. */
export const RESTRICTED_TOKEN = 'restricted-token';
/**
 * Bearer token of the portal's service account as deploy/rbac.yaml binds it: the user
 * `system:serviceaccount:backstage:backstage`, which a ClusterRoleBinding to ServiceAccount
 * backstage/backstage matches (Kubernetes RBAC matches a ServiceAccount subject by that user name).
 * No grants of its own: a test applies the ClusterRole and its binding.
 */
export const PORTAL_SA_TOKEN = 'portal-sa-token';
export const PORTAL_SA_USER = 'system:serviceaccount:backstage:backstage';

/** Where a running server is and how to trust it. */
export type EnvtestConnection = {
  url: string;
  caPem: string;
  servingCertPem: string;
  servingKeyPem: string;
};

export type KubeEnvtestOptions = {
  /** The binaries; default: `KUBEBUILDER_ASSETS`. */
  assets?: EnvtestAssets;
  /** Namespaces created at start (default `['default']`; `default` always exists). */
  namespaces?: string[];
  /** CRD directories (default: the test double's, `defaultCrdDir()`). */
  crdDir?: string | string[];
  /** How long start may take before it fails (default 120 s: a loaded 2-core machine). */
  startTimeoutMs?: number;
};

/** The API groups of the CRDs (cluster-scoped objects of other groups are the server's own). */
const CUSTOM_GROUP =
  /serving\.kserve\.io|gateway\.networking\.k8s\.io|envoyproxy\.io|inference\.networking/;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>(resolve => server.close(() => resolve()));
  return port;
}

/** Polls `check` until it returns a value, failing with `what` and the last error after the deadline. */
async function pollUntil<T>(
  what: string,
  deadline: number,
  check: () => Promise<T | undefined>,
  exited?: () => string | undefined,
): Promise<T> {
  let last = '';
  for (let delay = 20; ; delay = Math.min(delay * 2, 250)) {
    const dead = exited?.();
    if (dead) throw new Error(`${what}: ${dead}`);
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (e) {
      last = String(e);
    }
    if (Date.now() > deadline)
      throw new Error(
        `${what} did not happen in time${last ? `: ${last}` : ''}`,
      );
    await new Promise(resolve => setTimeout(resolve, delay));
  }
}

type Proc = { child: ChildProcess; name: string; log: string[]; exit?: string };

function startProcess(name: string, file: string, args: string[]): Proc {
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const proc: Proc = { child, name, log: [] };
  const keep = (chunk: Buffer) => {
    proc.log.push(chunk.toString('utf8'));
    if (proc.log.length > 200) proc.log.shift();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  child.on('exit', (code, signal) => {
    proc.exit = `${name} exited (${signal ?? code}):\n${proc.log
      .join('')
      .slice(-3000)}`;
  });
  return proc;
}

async function stopProcess(proc: Proc): Promise<void> {
  if (proc.exit !== undefined || proc.child.exitCode !== null) return;
  const exited = new Promise<void>(resolve =>
    proc.child.once('exit', () => resolve()),
  );
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export class KubeEnvtest {
  /** The kube-apiserver, `https://127.0.0.1:<port>`. */
  readonly url: string;
  /** The CA that signed the serving certificate (PEM). */
  readonly caPem: string;
  /** The serving certificate and key (PEM), for a proxy that presents the same identity. */
  readonly servingCertPem: string;
  readonly servingKeyPem: string;
  /** `admin` (group system:masters), as the test double's ADMIN_TOKEN. */
  readonly adminToken = ADMIN_TOKEN;

  private constructor(
    private readonly dir: string | undefined,
    private readonly procs: Proc[],
    conn: EnvtestConnection,
  ) {
    this.url = conn.url;
    this.caPem = conn.caPem;
    this.servingCertPem = conn.servingCertPem;
    this.servingKeyPem = conn.servingKeyPem;
  }

  /** How another process reaches this server ({@link KubeEnvtest.attach}). */
  get connection(): EnvtestConnection {
    return {
      url: this.url,
      caPem: this.caPem,
      servingCertPem: this.servingCertPem,
      servingKeyPem: this.servingKeyPem,
    };
  }

  /**
   * A server started by another process (e.g. once for a whole test run): `stop()` leaves it
   * running.
   */
  static attach(conn: EnvtestConnection): KubeEnvtest {
    return new KubeEnvtest(undefined, [], conn);
  }

  /** Starts etcd and kube-apiserver, waits for /readyz, installs the CRDs, creates the namespaces. */
  static async start(opts: KubeEnvtestOptions = {}): Promise<KubeEnvtest> {
    const found = opts.assets ? { assets: opts.assets } : findEnvtestAssets();
    if (!('assets' in found)) throw new Error(found.missing);
    const { assets } = found;
    const deadline = Date.now() + (opts.startTimeoutMs ?? 120_000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-envtest-'));
    const procs: Proc[] = [];
    try {
      const pki = makePki(dir);
      fs.writeFileSync(
        path.join(dir, 'tokens.csv'),
        `${ADMIN_TOKEN},admin,admin-uid,"system:masters"\n` +
          `${KSERVE_DEV_TOKEN},kserve-dev,kserve-dev-uid\n` +
          `${RESTRICTED_TOKEN},restricted,restricted-uid\n` +
          `${PORTAL_SA_TOKEN},${PORTAL_SA_USER},portal-sa-uid\n`,
      );
      const [etcdPort, peerPort, apiPort] = [
        await freePort(),
        await freePort(),
        await freePort(),
      ];
      const etcdUrl = `http://127.0.0.1:${etcdPort}`;
      const etcd = startProcess('etcd', assets.etcd, [
        `--data-dir=${path.join(dir, 'etcd')}`,
        `--listen-client-urls=${etcdUrl}`,
        `--advertise-client-urls=${etcdUrl}`,
        `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
        `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
        `--initial-cluster=default=http://127.0.0.1:${peerPort}`,
        '--unsafe-no-fsync',
      ]);
      procs.push(etcd);
      await pollUntil(
        'etcd health',
        deadline,
        async () =>
          (await request(etcdUrl, { path: '/health' })).status === 200
            ? true
            : undefined,
        () => etcd.exit,
      );
      const apiserver = startProcess('kube-apiserver', assets.kubeApiserver, [
        `--etcd-servers=${etcdUrl}`,
        '--bind-address=127.0.0.1',
        '--advertise-address=127.0.0.1',
        `--secure-port=${apiPort}`,
        `--cert-dir=${dir}`,
        `--tls-cert-file=${pki.servingCert}`,
        `--tls-private-key-file=${pki.servingKey}`,
        `--client-ca-file=${pki.caCert}`,
        `--service-account-key-file=${pki.saPub}`,
        `--service-account-signing-key-file=${pki.saKey}`,
        '--service-account-issuer=https://kubernetes.default.svc',
        `--token-auth-file=${path.join(dir, 'tokens.csv')}`,
        '--authorization-mode=RBAC',
        '--anonymous-auth=false',
        '--endpoint-reconciler-type=none',
        '--service-cluster-ip-range=10.0.0.0/24',
        '--disable-admission-plugins=ServiceAccount',
      ]);
      procs.push(apiserver);
      const env = new KubeEnvtest(dir, procs, {
        url: `https://127.0.0.1:${apiPort}`,
        caPem: pki.caPem,
        servingCertPem: fs.readFileSync(pki.servingCert, 'utf8'),
        servingKeyPem: fs.readFileSync(pki.servingKey, 'utf8'),
      });
      await pollUntil(
        'kube-apiserver /readyz',
        deadline,
        async () =>
          (await env.request({ path: '/readyz' })).status === 200
            ? true
            : undefined,
        () => apiserver.exit,
      );
      await env.installCrds(opts.crdDir ?? defaultCrdDir(), deadline);
      await env.installRbac();
      for (const ns of opts.namespaces ?? ['default'])
        await env.createNamespace(ns);
      return env;
    } catch (e) {
      for (const p of procs.reverse()) await stopProcess(p);
      fs.rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  }

  /** One request as `admin` unless another token is given. */
  request(req: TestRequest): Promise<TestResponse> {
    return request(this.url, {
      token: this.adminToken,
      ca: this.caPem,
      ...req,
    });
  }

  private async must(req: TestRequest, ok: number[]): Promise<TestResponse> {
    const res = await this.request(req);
    if (!ok.includes(res.status)) {
      throw new Error(
        `${req.method ?? 'GET'} ${req.path} answered ${
          res.status
        }: ${res.text.slice(0, 500)}`,
      );
    }
    return res;
  }

  /** Creates a namespace (no error when it exists). */
  async createNamespace(name: string): Promise<void> {
    await this.must(
      {
        method: 'POST',
        path: '/api/v1/namespaces',
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
      },
      [201, 409],
    );
  }

  private async installCrds(dirs: string | string[], deadline: number) {
    const crds: JsonObject[] = (Array.isArray(dirs) ? dirs : [dirs]).flatMap(
      d => loadCrds(d),
    );
    const names = new Set<string>();
    for (const crd of crds) {
      const body = { ...crd } as any;
      delete body.status;
      const name = body.metadata.name as string;
      if (names.has(name)) continue;
      names.add(name);
      await this.must(
        {
          method: 'POST',
          path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
          body,
        },
        [201, 409],
      );
    }
    // Established is set by the apiextensions controller once the CRD's names are accepted;
    // requests for its resources may still 404 for a moment, so wait for discovery as well.
    await Promise.all(
      (crds as any[]).map(crd => this.waitForCrd(crd, deadline)),
    );
  }

  private async waitForCrd(crd: any, deadline: number) {
    const name = crd.metadata.name as string;
    await pollUntil(`CRD ${name} Established`, deadline, async () => {
      const res = await this.request({
        path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`,
      });
      const conditions: any[] = res.json?.status?.conditions ?? [];
      return conditions.some(
        c => c.type === 'Established' && c.status === 'True',
      )
        ? true
        : undefined;
    });
    for (const version of crd.spec.versions.filter((v: any) => v.served)) {
      await pollUntil(
        `${crd.spec.group}/${version.name} ${crd.spec.names.plural} in discovery`,
        deadline,
        async () => {
          const res = await this.request({
            path: `/apis/${crd.spec.group}/${version.name}`,
          });
          return (res.json?.resources ?? []).some(
            (r: any) => r.name === crd.spec.names.plural,
          )
            ? true
            : undefined;
        },
      );
    }
  }

  /**
   * The test double's default users, as RBAC: `kserve-dev` may get/list/watch/patch
   * serving.kserve.io objects in namespace `demo` (bound when `demo` is created); `restricted` may
   * do nothing.
   */
  private async installRbac() {
    await this.must(
      {
        method: 'POST',
        path: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
        body: {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRole',
          metadata: { name: 'kserve-dev' },
          rules: [
            {
              apiGroups: ['serving.kserve.io'],
              resources: ['*'],
              verbs: ['get', 'list', 'watch', 'patch'],
            },
          ],
        },
      },
      [201, 409],
    );
    await this.createNamespace('demo');
    await this.must(
      {
        method: 'POST',
        path: '/apis/rbac.authorization.k8s.io/v1/namespaces/demo/rolebindings',
        body: {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name: 'kserve-dev', namespace: 'demo' },
          roleRef: {
            apiGroup: 'rbac.authorization.k8s.io',
            kind: 'ClusterRole',
            name: 'kserve-dev',
          },
          subjects: [
            {
              apiGroup: 'rbac.authorization.k8s.io',
              kind: 'User',
              name: 'kserve-dev',
            },
          ],
        },
      },
      [201, 409],
    );
  }

  /**
   * Deletes every object in `namespaces` and every cluster-scoped custom resource, so suites that
   * share one server start from empty namespaces (a namespace cannot be deleted and recreated
   * here: no namespace controller finalizes it). Finalizers are removed, as no controller would.
   */
  async clean(namespaces: string[]): Promise<void> {
    const targets: string[] = [];
    const groups = await this.must({ path: '/apis' }, [200]);
    const bases = [
      '/api/v1',
      ...(groups.json.groups as any[]).flatMap(g =>
        (g.versions as any[]).map(v => `/apis/${v.groupVersion}`),
      ),
    ];
    for (const base of bases) {
      const list = await this.must({ path: base }, [200]);
      for (const r of list.json.resources as any[]) {
        if (r.name.includes('/') || !r.verbs.includes('deletecollection'))
          continue;
        if (r.namespaced) {
          if (['events', 'serviceaccounts'].includes(r.name)) continue;
          for (const ns of namespaces)
            targets.push(`${base}/namespaces/${ns}/${r.name}`);
        } else if (base.startsWith('/apis/') && CUSTOM_GROUP.test(base)) {
          targets.push(`${base}/${r.name}`);
        }
      }
    }
    await Promise.all(targets.map(t => this.emptyCollection(t)));
  }

  private async emptyCollection(collection: string) {
    const list = await this.request({ path: collection });
    if (list.status !== 200 || (list.json.items ?? []).length === 0) return;
    for (const item of list.json.items as any[]) {
      if ((item.metadata.finalizers ?? []).length === 0) continue;
      await this.request({
        method: 'PATCH',
        path: `${collection}/${item.metadata.name}`,
        body: { metadata: { finalizers: null } },
        contentType: 'application/merge-patch+json',
      });
    }
    // gracePeriodSeconds 0: no kubelet runs here to finish a graceful delete of a pod bound to a
    // node, which would stay Terminating (and be seen by the next suite) forever.
    await this.must(
      {
        method: 'DELETE',
        path: collection,
        body: { propagationPolicy: 'Background', gracePeriodSeconds: 0 },
      },
      [200],
    );
  }

  /** Stops kube-apiserver, then etcd, and removes their files (an attached server keeps running). */
  async stop(): Promise<void> {
    for (const p of [...this.procs].reverse()) await stopProcess(p);
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
