/** Builds @kubernetes/client-node clients for a test server. */
import { KubeConfig } from '@kubernetes/client-node';

export function kubeConfigFor(url: string, token: string, namespace = 'default'): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'test', server: url, skipTLSVerify: true }],
    users: [{ name: 'test-user', token }],
    contexts: [{ name: 'test', cluster: 'test', user: 'test-user', namespace }],
    currentContext: 'test',
  });
  return kc;
}
