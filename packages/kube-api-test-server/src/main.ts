/** Starting the test server from environment variables (for the CLI). */
import { KubeApiTestServer } from './KubeApiTestServer';
import { seedWorkingCluster } from './testing/seedWorkingCluster';

/**
 * Starts a server configured by environment variables:
 * `KUBE_API_TEST_SERVER_PORT` (default 0 = any free port),
 * `KUBE_API_TEST_SERVER_NAMESPACES` (comma-separated, default `default`),
 * `KUBE_API_TEST_SERVER_ANONYMOUS` (`forbidden` or `unauthenticated`),
 * `MODEL_MANAGER_CRD_DIR` (CRD directory),
 * `KUBE_API_TEST_SERVER_LATENCY_MS` (every answer delayed this long, as a remote API server's round
 * trip, admission webhooks and etcd commit would; for benchmarks, default none),
 * `KUBE_API_TEST_SERVER_SEED=working-cluster` (a Ready node and a default StorageClass, see
 * `seedWorkingCluster`) with `KUBE_API_TEST_SERVER_GATEWAYS` (`namespace/name,...`: Gateways).
 */
export async function startFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): Promise<KubeApiTestServer> {
  const namespaces = (env.KUBE_API_TEST_SERVER_NAMESPACES ?? 'default')
    .split(',')
    .map(s => s.trim())
    .filter(Boolean);
  const anonymous =
    env.KUBE_API_TEST_SERVER_ANONYMOUS === 'forbidden'
      ? 'forbidden'
      : 'unauthenticated';
  const latencyMs = Number(env.KUBE_API_TEST_SERVER_LATENCY_MS ?? 0);
  if (!(latencyMs >= 0))
    throw new Error(
      `KUBE_API_TEST_SERVER_LATENCY_MS must be a number of milliseconds, not '${env.KUBE_API_TEST_SERVER_LATENCY_MS}'`,
    );
  const server = await KubeApiTestServer.start({
    port: Number(env.KUBE_API_TEST_SERVER_PORT ?? 0),
    namespaces,
    anonymous,
    crdDir: env.MODEL_MANAGER_CRD_DIR,
  });
  if (env.KUBE_API_TEST_SERVER_SEED === 'working-cluster')
    seedWorkingCluster(server, {
      gateways: (env.KUBE_API_TEST_SERVER_GATEWAYS ?? '')
        .split(',')
        .map(s => s.trim())
        .filter(Boolean)
        .map(g => {
          const [namespace, name] = g.split('/');
          return { namespace, name };
        }),
    });
  if (latencyMs > 0)
    server.faults.inject({
      kind: 'latency',
      ms: latencyMs,
      times: Number.POSITIVE_INFINITY,
    });
  return server;
}
