import { KubeApiTestServer } from './KubeApiTestServer';

describe('rules bound to system:anonymous', () => {
  it('apply to requests without a token when anonymous auth is on', async () => {
    const bound = await KubeApiTestServer.start({
      anonymous: 'forbidden',
      impersonatable: {
        'system:anonymous': [
          { namespaces: '*', verbs: '*', resources: '*', apiGroups: '*' },
        ],
      },
    });
    const unbound = await KubeApiTestServer.start({ anonymous: 'forbidden' });
    try {
      expect((await fetch(`${bound.url}/api`)).status).toBe(200);
      expect(
        (await fetch(`${bound.url}/api/v1/namespaces/default`)).status,
      ).toBe(200);
      expect((await fetch(`${unbound.url}/api`)).status).toBe(403);
      expect(
        (await fetch(`${unbound.url}/api/v1/namespaces/default`)).status,
      ).toBe(403);
    } finally {
      await bound.stop();
      await unbound.stop();
    }
  }, 120_000);
});

describe('dry-run create', () => {
  it('answers like kube-apiserver: a uid but no resourceVersion (recording 06)', async () => {
    const server = await KubeApiTestServer.start({ namespaces: ['models'] });
    try {
      const body = JSON.stringify({
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'j', namespace: 'models' },
        spec: {
          template: {
            spec: {
              restartPolicy: 'Never',
              containers: [{ name: 'a', image: 'b' }],
            },
          },
        },
      });
      const res = await fetch(
        `${server.url}/apis/batch/v1/namespaces/models/jobs/j?fieldManager=m&dryRun=All`,
        {
          method: 'PATCH',
          headers: {
            'Content-Type': 'application/apply-patch+yaml',
            Authorization: 'Bearer admin-token',
          },
          body,
        },
      );
      expect(res.status).toBe(201);
      const { metadata } = await res.json();
      expect(metadata.uid).toBeDefined();
      expect(metadata.resourceVersion).toBeUndefined();
      expect(metadata.creationTimestamp).toBeDefined();
    } finally {
      await server.stop();
    }
  }, 120_000);
});
