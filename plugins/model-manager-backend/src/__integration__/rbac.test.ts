/**
 * The RBAC we tell platform teams to grant (deploy/rbac.yaml, shown in the README) is what the
 * backend needs: its whole round against a cluster — preflight, dry run, deploy, status with the
 * diagnosis, the fleet with its watch cache, undeploy — with a service account that has exactly
 * that ClusterRole is never refused, and no preflight check is left `unknown` for want of a grant.
 */
import { mockCredentials } from '@backstage/backend-test-utils';
import {
  ADMIN_TOKEN,
  KubeApiTestServer,
  PORTAL_SA_TOKEN,
  PORTAL_SA_USER,
  kubeTargetKind,
  startKubeTarget,
  type KubeTarget,
  type RbacRule,
} from '@model-manager/kube-api-test-server';
import {
  putWithStatus,
  seedSchedulableTarget,
  vllmWorkloadPod,
} from '@model-manager/test-harness';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { parseAllDocuments } from 'yaml';
import { REPO_ROOT, useModelManager } from '../__testUtils__/testBackend';

const ALICE = mockCredentials.user.header('user:default/alice');
const NS = 'models';
const OVMS = 'bge-small-en-v1-5-ov';
const VLLM = 'qwen2-5-7b-instruct';
const RBAC_FILE = path.join(REPO_ROOT, 'deploy', 'rbac.yaml');

interface ClusterRoleRule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
  resourceNames?: string[];
}

function rbacDocuments(): any[] {
  return parseAllDocuments(fs.readFileSync(RBAC_FILE, 'utf8')).map(d =>
    d.toJS(),
  );
}

function clusterRole(): { rules: ClusterRoleRule[] } {
  const docs = rbacDocuments();
  const role = docs.find(d => d?.kind === 'ClusterRole');
  if (!role) throw new Error(`${RBAC_FILE} has no ClusterRole`);
  const binding = docs.find(d => d?.kind === 'ClusterRoleBinding');
  expect(binding?.roleRef).toEqual({
    apiGroup: 'rbac.authorization.k8s.io',
    kind: 'ClusterRole',
    name: role.metadata.name,
  });
  // The service account the real server's token stands for (KubeEnvtest's PORTAL_SA_USER).
  expect(
    binding.subjects.map(
      (x: any) => `system:serviceaccount:${x.namespace}:${x.name}`,
    ),
  ).toEqual([PORTAL_SA_USER]);
  return role;
}

/** A ClusterRole bound cluster-wide, as the double's rules (every namespace and the cluster scope). */
function asTestRules(rules: ClusterRoleRule[]): RbacRule[] {
  return rules
    .filter(r => !(r.verbs ?? []).includes('impersonate'))
    .map(r => {
      // The double has no resourceNames: a rule narrowed by name would grant more here.
      expect(r.resourceNames).toBeUndefined();
      return {
        namespaces: '*',
        verbs: r.verbs ?? [],
        resources: r.resources ?? [],
        apiGroups: r.apiGroups ?? [],
      };
    });
}

const real = kubeTargetKind(process.env) === 'real';

describe('the RBAC of deploy/rbac.yaml', () => {
  let kube: KubeTarget;
  beforeAll(async () => {
    const { rules } = clusterRole();
    if (real) {
      // The real kube-apiserver's RBAC authorizer, with the file's ClusterRole and binding as
      // they are, for the token of the service account they name.
      kube = await startKubeTarget({ namespaces: ['default', NS] });
      for (const doc of rbacDocuments()) await kube.objects.put(doc);
    } else {
      kube = await KubeApiTestServer.start({
        namespaces: ['default', NS],
        users: {
          [ADMIN_TOKEN]: { name: 'admin', groups: ['system:masters'] },
          [PORTAL_SA_TOKEN]: {
            name: PORTAL_SA_USER,
            rules: asTestRules(rules),
            canImpersonate: rules.some(r =>
              (r.verbs ?? []).includes('impersonate'),
            ),
          },
        },
      });
    }
    await seedSchedulableTarget(kube);
  }, 120_000);
  const ctx = useModelManager(() => ({
    kube,
    token: PORTAL_SA_TOKEN,
    modelManagerConfig: { fleet: { cacheSeconds: 0, watch: true } },
  }));
  afterAll(() => kube?.stop());

  const refused = () =>
    kube.requests
      .filter(r => r.status === 403)
      .map(r => `${r.method} ${r.path}`);

  it("is the README's ClusterRole, word for word", () => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    const file = fs.readFileSync(RBAC_FILE, 'utf8');
    const role = file.slice(file.indexOf('apiVersion:'), file.indexOf('---'));
    expect(readme).toContain(`\`\`\`yaml\n${role}\`\`\``);
  });

  it('lets preflight read everything it checks: no check is unknown', async () => {
    for (const model of [OVMS, VLLM]) {
      const res = await request(ctx.server)
        .get(`/api/model-manager/models/${model}/preflight`)
        .query({ cluster: 'local', namespace: NS })
        .set('Authorization', ALICE)
        .expect(200);
      const unknown = res.body.checks.filter(
        (c: any) => c.status === 'unknown',
      );
      expect(unknown).toEqual([]);
      expect(res.body.checks.length).toBeGreaterThan(5);
    }
    expect(refused()).toEqual([]);
  });

  it('lets a deploy, its status and diagnosis, the fleet and an undeploy through, never refused', async () => {
    for (const model of [OVMS, VLLM]) {
      await request(ctx.server)
        .post(`/api/model-manager/models/${model}/deploy`)
        .set('Authorization', ALICE)
        .send({ cluster: 'local', namespace: NS, dryRun: true })
        .expect(200);
      await request(ctx.server)
        .post(`/api/model-manager/models/${model}/deploy`)
        .set('Authorization', ALICE)
        .send({ cluster: 'local', namespace: NS })
        .expect(200);
    }
    // A crash-looping workload pod, so the diagnosis reads pods, Events and the previous log.
    const pod = vllmWorkloadPod({
      model: VLLM,
      namespace: NS,
      name: 'qwen-0',
      container: {
        restartCount: 3,
        containerID: 'containerd://2',
        state: { waiting: { reason: 'CrashLoopBackOff' } },
        lastState: {
          terminated: {
            reason: 'Error',
            exitCode: 1,
            containerID: 'containerd://1',
          },
        },
      },
    });
    await putWithStatus(kube, pod);
    // The log is the kubelet's: the double holds one; a real server without nodes has none to
    // reach, and answers an error that is not a refusal.
    if (kube instanceof KubeApiTestServer)
      kube.setPodLog(
        { namespace: NS, pod: 'qwen-0', container: 'main', previous: true },
        'RuntimeError: CUDA error: no kernel image is available\n',
      );
    const status = await request(ctx.server)
      .get(`/api/model-manager/models/${VLLM}/status`)
      .set('Authorization', ALICE)
      .expect(200);
    if (!real)
      expect(status.body.items[0].diagnosis.logs).toEqual([
        expect.objectContaining({
          pod: 'qwen-0',
          previous: true,
          lines: ['RuntimeError: CUDA error: no kernel image is available'],
        }),
      ]);
    // The pod, its Events and its log were read (not refused).
    expect(
      kube.requests.filter(
        r => r.path.endsWith('/pods/qwen-0/log') && r.status !== undefined,
      ).length,
    ).toBeGreaterThan(0);

    // The fleet from its watch cache: every target read, none Unknown.
    for (;;) {
      const fleet = await request(ctx.server)
        .get('/api/model-manager/fleet')
        .set('Authorization', ALICE)
        .expect(200);
      const mine = fleet.body.items.filter((i: any) =>
        [OVMS, VLLM].includes(i.model),
      );
      expect(mine.filter((i: any) => i.state === 'Unknown')).toEqual([]);
      if (mine.length === 2) break;
      await new Promise(resolve => setImmediate(resolve));
    }
    expect(
      kube.requests.some(r => r.query.watch === 'true' && r.status !== 403),
    ).toBe(true);

    await kube.objects.delete({
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: NS,
      name: 'qwen-0',
    });
    for (const model of [OVMS, VLLM])
      await request(ctx.server)
        .delete(`/api/model-manager/models/${model}/deployment`)
        .query({ cluster: 'local', namespace: NS })
        .set('Authorization', ALICE)
        .expect(200);
    expect(
      kube.requests.filter(r => r.method === 'DELETE' && r.status === 200)
        .length,
    ).toBeGreaterThan(4);
    expect(refused()).toEqual([]);
  });
});
