import { KubeApiTestServer } from './KubeApiTestServer';

describe('rules bound to system:anonymous', () => {
  it('apply to requests without a token when anonymous auth is on', async () => {
    const bound = await KubeApiTestServer.start({
      anonymous: 'forbidden',
      impersonatable: { 'system:anonymous': [{ namespaces: '*', verbs: '*', resources: '*', apiGroups: '*' }] },
    });
    const unbound = await KubeApiTestServer.start({ anonymous: 'forbidden' });
    try {
      expect((await fetch(`${bound.url}/api`)).status).toBe(200);
      expect((await fetch(`${bound.url}/api/v1/namespaces/default`)).status).toBe(200);
      expect((await fetch(`${unbound.url}/api`)).status).toBe(403);
      expect((await fetch(`${unbound.url}/api/v1/namespaces/default`)).status).toBe(403);
    } finally {
      await bound.stop();
      await unbound.stop();
    }
  }, 120_000);
});
