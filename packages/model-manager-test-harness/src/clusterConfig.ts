import { ADMIN_TOKEN } from '@model-manager/kube-api-test-server';

/**
 * The `kubernetes` section of app-config for clusters served by Kubernetes API test servers, as a
 * portal declares them (`clusterLocatorMethods` of type `config`, a service account token),
 * reached with the test server's admin token unless a cluster says otherwise.
 */
export function testClustersConfig(
  clusters: Array<{ name: string; url: string; token?: string }>,
) {
  return {
    serviceLocatorMethod: { type: 'multiTenant' },
    clusterLocatorMethods: [
      {
        type: 'config',
        clusters: clusters.map(c => ({
          name: c.name,
          url: c.url,
          authProvider: 'serviceAccount',
          serviceAccountToken: c.token ?? ADMIN_TOKEN,
          skipTLSVerify: true,
        })),
      },
    ],
  };
}
