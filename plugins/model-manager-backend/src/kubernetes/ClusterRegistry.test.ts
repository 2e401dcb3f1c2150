import { ConfigReader } from '@backstage/config';
import { ClusterRegistry } from './ClusterRegistry';

const config = (clusters: Record<string, any>) =>
  new ConfigReader({
    kubernetes: {
      clusterLocatorMethods: [
        {
          type: 'config',
          clusters: [
            {
              name: 'local',
              url: 'https://k8s.example.com',
              serviceAccountToken: 't',
            },
          ],
        },
      ],
    },
    modelManager: { kubernetes: { clusters } },
  });

describe('modelManager.kubernetes.clusters.<name>.namespaces', () => {
  it('refuses other namespaces, naming the allowed ones and the key; absent means any namespace', () => {
    const registry = ClusterRegistry.fromConfig(
      config({ local: { namespaces: ['models'] } }),
    );
    expect(() =>
      registry.assertNamespaceAllowed('local', 'models'),
    ).not.toThrow();
    expect(() =>
      registry.assertNamespaceAllowed('local', 'kube-system'),
    ).toThrow(
      "namespace 'kube-system' is not open to model deployments on cluster local; allowed: models (modelManager.kubernetes.clusters.local.namespaces)",
    );
    expect(registry.list()[0].namespaces).toEqual(['models']);
    const open = ClusterRegistry.fromConfig(config({}));
    expect(() =>
      open.assertNamespaceAllowed('local', 'anything'),
    ).not.toThrow();
  });

  it.each([
    [
      { mars: { namespaces: ['models'] } },
      "modelManager.kubernetes.clusters.mars.namespaces: there is no cluster 'mars' in kubernetes.clusterLocatorMethods (clusters: local); fix the name or remove the key",
    ],
    [
      { local: { namespaces: ['Models', 'ok'] } },
      "modelManager.kubernetes.clusters.local.namespaces: 'Models' is not a namespace name (DNS-1123 labels: lowercase letters, digits and -)",
    ],
  ])('a start-up error names the key (%#)', (clusters, message) => {
    expect(() => ClusterRegistry.fromConfig(config(clusters))).toThrow(message);
  });
});
