/** Starting the test server from environment variables (for the CLI). */
import { KubeApiTestServer } from './KubeApiTestServer';

/**
 * Starts a server configured by environment variables:
 * `KUBE_API_TEST_SERVER_PORT` (default 0 = any free port),
 * `KUBE_API_TEST_SERVER_NAMESPACES` (comma-separated, default `default`),
 * `KUBE_API_TEST_SERVER_ANONYMOUS` (`forbidden` or `unauthenticated`),
 * `MODEL_MANAGER_CRD_DIR` (CRD directory).
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
  return KubeApiTestServer.start({
    port: Number(env.KUBE_API_TEST_SERVER_PORT ?? 0),
    namespaces,
    anonymous,
    crdDir: env.MODEL_MANAGER_CRD_DIR,
  });
}
