/**
 * Requests recorded by hand against kube-apiserver v1.34.9 (with etcd 3.4) for issue 28, replayed
 * against the double in the same order: Job updates that ValidateJobSpecUpdate refuses, dry runs
 * that keep the live resourceVersion, and the size limits of kube-apiserver and etcd. The answers
 * are in __fixtures__/kube-apiserver-v1.34.9 (large bodies are built again here, not stored).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ADMIN_TOKEN, KubeApiTestServer } from './index';
import { TestResponse, clientFor } from './testing/httpClient';

const FIXTURES = path.join(__dirname, '__fixtures__', 'kube-apiserver-v1.34.9');
const recorded = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'));

const job = (name: string, args: string[], extra: object = {}) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name, namespace: 'models' },
  spec: {
    backoffLimit: 2,
    template: {
      spec: {
        restartPolicy: 'Never',
        containers: [{ name: 'dl', image: 'busybox:1', args }],
      },
    },
    ...extra,
  },
});

/** The parts of a Status answer our code reads; a template's value is a Go struct on the real server. */
const statusOf = (body: any) => ({
  kind: body.kind,
  status: body.status,
  code: body.code,
  reason: body.reason,
  details: body.details && {
    name: body.details.name,
    group: body.details.group,
    kind: body.details.kind,
  },
  message: body.message?.includes('spec.template: Invalid value')
    ? undefined
    : body.message,
  causes: body.details?.causes?.map((c: any) => ({
    reason: c.reason,
    field: c.field,
    message: c.field === 'spec.template' ? undefined : c.message,
  })),
});

describe('answers recorded from kube-apiserver v1.34.9', () => {
  let server: KubeApiTestServer;
  let send: (name: string, body?: object) => Promise<TestResponse>;

  beforeAll(async () => {
    server = await KubeApiTestServer.start({ namespaces: ['models'] });
    const call = clientFor(server.url, ADMIN_TOKEN);
    send = (name, body) => {
      const { request } = recorded(name);
      return call({
        method: request.method,
        path: request.path,
        body: body ?? request.body,
        contentType: 'application/apply-patch+yaml',
      });
    };
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('creates the Job, then refuses changes to immutable fields of its spec with 422 Invalid', async () => {
    expect((await send('job-create')).status).toBe(
      recorded('job-create').status,
    );
    for (const name of [
      'job-template-immutable',
      'job-template-immutable-dry-run',
      'job-completions-immutable',
      'job-two-immutable',
    ]) {
      const real = recorded(name);
      const res = await send(name);
      expect({ name, status: res.status, body: statusOf(res.json) }).toEqual({
        name,
        status: real.status,
        body: statusOf(real.body),
      });
    }
  });

  it('a dry run that would change the Job keeps the live resourceVersion and bumps generation; one that would not answers the live object', async () => {
    const live = (await send('job-get')).json;
    const changed = await send('job-dry-run-changed');
    const real = recorded('job-dry-run-changed');
    const realLive = recorded('job-get').body;
    expect(changed.status).toBe(real.status);
    expect(real.body.metadata.resourceVersion).toBe(
      realLive.metadata.resourceVersion,
    );
    expect(changed.json.metadata.resourceVersion).toBe(
      live.metadata.resourceVersion,
    );
    expect(changed.json.metadata.generation).toBe(
      real.body.metadata.generation,
    );
    expect(changed.json.spec.backoffLimit).toBe(5);

    const unchanged = await send('job-dry-run-unchanged');
    expect(unchanged.status).toBe(recorded('job-dry-run-unchanged').status);
    expect(unchanged.json).toEqual(live);
    expect((await send('job-get')).json).toEqual(live);
  });

  it('refuses a Job too large for etcd with 500 "etcdserver: request is too large", and accepts its dry run', async () => {
    const big = job('big', ['x'.repeat(1_800_000)]);
    const real = recorded('job-too-large-for-etcd');
    const res = await send('job-too-large-for-etcd', big);
    expect({ status: res.status, body: res.json }).toEqual({
      status: real.status,
      body: real.body,
    });
    const dry = await send('job-too-large-for-etcd-dry-run', big);
    expect(dry.status).toBe(recorded('job-too-large-for-etcd-dry-run').status);
  });

  it('refuses a request body over 3 MiB with 413 RequestEntityTooLarge', async () => {
    const real = recorded('request-too-large');
    const res = await send('request-too-large', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm4', namespace: 'models' },
      data: { big: 'x'.repeat(3_200_000) },
    });
    expect({ status: res.status, body: res.json }).toEqual({
      status: real.status,
      body: real.body,
    });
  });
});
