import { parseYaml } from './handlers/codec';
import { startFromEnv } from './main';
import { request } from './testing/httpClient';

describe('startFromEnv', () => {
  it('starts a server configured by environment variables', async () => {
    const server = await startFromEnv({
      KUBE_API_TEST_SERVER_NAMESPACES: 'a, b',
      KUBE_API_TEST_SERVER_ANONYMOUS: 'forbidden',
    });
    try {
      expect(server.store.namespaces()).toEqual(['a', 'b']);
      expect(
        (await request(server.url, { path: '/api/v1/namespaces' })).status,
      ).toBe(403);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('delays every answer by KUBE_API_TEST_SERVER_LATENCY_MS, and refuses a value that is not a number', async () => {
    const server = await startFromEnv({ KUBE_API_TEST_SERVER_LATENCY_MS: '5' });
    try {
      expect(server.faults.pending()).toEqual([
        { kind: 'latency', ms: 5, times: Number.POSITIVE_INFINITY },
      ]);
    } finally {
      await server.stop();
    }
    await expect(
      startFromEnv({ KUBE_API_TEST_SERVER_LATENCY_MS: '5ms' }),
    ).rejects.toThrow(
      "KUBE_API_TEST_SERVER_LATENCY_MS must be a number of milliseconds, not '5ms'",
    );
  }, 120_000);

  it('seeds a working cluster (a Ready node, a default StorageClass, Gateways) when asked', async () => {
    const server = await startFromEnv({
      KUBE_API_TEST_SERVER_NAMESPACES: 'models',
      KUBE_API_TEST_SERVER_SEED: 'working-cluster',
      KUBE_API_TEST_SERVER_GATEWAYS: 'gw-system/ai-gateway',
    });
    try {
      const get = (path: string) =>
        request(server.url, { path, token: 'admin-token' }).then(r => r.json);
      expect((await get('/api/v1/nodes')).items[0].status.conditions).toEqual([
        expect.objectContaining({ type: 'Ready', status: 'True' }),
      ]);
      expect(
        (await get('/apis/storage.k8s.io/v1/storageclasses')).items[0].metadata
          .annotations,
      ).toEqual({ 'storageclass.kubernetes.io/is-default-class': 'true' });
      expect(
        (
          await get(
            '/apis/gateway.networking.k8s.io/v1/namespaces/gw-system/gateways/ai-gateway',
          )
        ).kind,
      ).toBe('Gateway');
    } finally {
      await server.stop();
    }
  }, 120_000);
});

describe('YAML request bodies', () => {
  it('decode like sigs.k8s.io/yaml', () => {
    expect(
      parseYaml(
        'a: yes\nb: off\nc: "6"\nd: 2026-11-30T14:00:00Z\ne: 1:30\nf: 12Gi\ng: 0755',
      ),
    ).toEqual({
      a: true,
      b: false,
      c: '6',
      d: '2026-11-30T14:00:00Z',
      e: '1:30',
      f: '12Gi',
      g: 493,
    });
  });
});
