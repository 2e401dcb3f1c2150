import { ConfigReader } from '@backstage/config';
import { ClusterRegistry } from './ClusterRegistry';

const config = (
  clusters: Record<string, any>,
  kubernetes: Record<string, any> = {},
) =>
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
    modelManager: { kubernetes: { ...kubernetes, clusters } },
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

  it('a start-up error names the key for a name that is not a namespace', () => {
    expect(() =>
      ClusterRegistry.fromConfig(
        config({ local: { namespaces: ['Models', 'ok'] } }),
      ),
    ).toThrow(
      "modelManager.kubernetes.clusters.local.namespaces: 'Models' is not a namespace name (DNS-1123 labels: lowercase letters, digits and -)",
    );
  });

  it('settings for a cluster that is not configured (a base config under an overlay) are a warning naming the key, not a failed start', () => {
    const warn = jest.fn();
    const registry = ClusterRegistry.fromConfig(
      config({
        mars: {
          namespaces: ['models'],
          gatewayBaseUrl: 'https://gw.example.com',
        },
      }),
      { logger: { warn } },
    );
    expect(warn.mock.calls.map(c => c[0])).toEqual([
      "modelManager.kubernetes.clusters.mars.gatewayBaseUrl: there is no cluster 'mars' in kubernetes.clusterLocatorMethods (clusters: local), so this setting applies to nothing; fix the name if it is meant for one of them",
      "modelManager.kubernetes.clusters.mars.namespaces: there is no cluster 'mars' in kubernetes.clusterLocatorMethods (clusters: local), so this setting applies to nothing; fix the name if it is meant for one of them",
    ]);
    expect(() =>
      registry.assertNamespaceAllowed('local', 'anything'),
    ).not.toThrow();
  });
});

describe('modelManager.kubernetes.requireNamespaceAllowlist', () => {
  const required = { requireNamespaceAllowlist: true };
  it('stops the start when a cluster has no allowlist, naming the key to set', () => {
    expect(() => ClusterRegistry.fromConfig(config({}, required))).toThrow(
      'modelManager.kubernetes.requireNamespaceAllowlist is on, but cluster local has no namespace allowlist: set modelManager.kubernetes.clusters.local.namespaces to the namespaces models may go to (e.g. [models]), or turn requireNamespaceAllowlist off to leave every namespace open',
    );
  });
  it('starts when every cluster has one, and refuses other namespaces', () => {
    const registry = ClusterRegistry.fromConfig(
      config({ local: { namespaces: ['models'] } }, required),
    );
    expect(() =>
      registry.assertNamespaceAllowed('local', 'kube-system'),
    ).toThrow(/not open to model deployments/);
  });
  it('is off by default: the embedded demo keeps every namespace open', () => {
    expect(() => ClusterRegistry.fromConfig(config({}))).not.toThrow();
  });
});
