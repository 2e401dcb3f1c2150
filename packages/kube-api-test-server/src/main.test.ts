import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseYaml } from './handlers/codec';
import { readManifests, startFromEnv } from './main';
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

  it('seeds a working cluster (a Ready node, a default StorageClass, Gateways, manifests) when asked', async () => {
    const manifests = path.join(
      fs.mkdtempSync(path.join(os.tmpdir(), 'kats-')),
      'eg.yaml',
    );
    fs.writeFileSync(
      manifests,
      [
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata: { name: eg-config, namespace: eg-system }',
        'data:',
        '  config.yaml: |',
        '    extensionApis:',
        '      enableBackend: true',
        '---',
        '',
      ].join('\n'),
    );
    const server = await startFromEnv({
      KUBE_API_TEST_SERVER_NAMESPACES: 'models',
      KUBE_API_TEST_SERVER_SEED: 'working-cluster',
      KUBE_API_TEST_SERVER_GATEWAYS: 'gw-system/ai-gateway',
      KUBE_API_TEST_SERVER_MANIFESTS: manifests,
    });
    try {
      const get = (apiPath: string) =>
        request(server.url, { path: apiPath, token: 'admin-token' }).then(
          r => r.json,
        );
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
      // The manifests' objects, their namespace created as an installer would.
      expect(
        (await get('/api/v1/namespaces/eg-system/configmaps/eg-config')).data,
      ).toEqual({ 'config.yaml': 'extensionApis:\n  enableBackend: true\n' });
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('names the manifests file and line of a YAML error', () => {
    const bad = path.join(
      fs.mkdtempSync(path.join(os.tmpdir(), 'kats-')),
      'bad.yaml',
    );
    fs.writeFileSync(bad, 'kind: ConfigMap\nmetadata: [name: x\n');
    expect(() => readManifests(bad)).toThrow(
      new RegExp(
        `^KUBE_API_TEST_SERVER_MANIFESTS: ${bad}: .* at line \\d+, column \\d+:?$`,
      ),
    );
  });
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
