/** Starting the test server from environment variables (for the CLI). */
import fs from 'node:fs';
import { parseAllDocuments } from 'yaml';
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
 * `seedWorkingCluster`) with `KUBE_API_TEST_SERVER_GATEWAYS` (`namespace/name,...`: Gateways) and
 * `KUBE_API_TEST_SERVER_SECRETS` (`namespace/name/key,...`: Secrets holding a placeholder value, e.g.
 * the Hugging Face token models.yaml references) and `KUBE_API_TEST_SERVER_MANIFESTS` (comma-separated
 * YAML files of other objects, e.g. Envoy Gateway's config ConfigMap as its install writes it).
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
  const list = (value: string | undefined) =>
    (value ?? '')
      .split(',')
      .map(s => s.trim())
      .filter(Boolean)
      .map(s => s.split('/'));
  if (env.KUBE_API_TEST_SERVER_SEED === 'working-cluster')
    seedWorkingCluster(server, {
      gateways: list(env.KUBE_API_TEST_SERVER_GATEWAYS).map(
        ([namespace, name]) => ({ namespace, name }),
      ),
      secrets: list(env.KUBE_API_TEST_SERVER_SECRETS).map(
        ([namespace, name, key]) => ({ namespace, name, key }),
      ),
      objects: (env.KUBE_API_TEST_SERVER_MANIFESTS ?? '')
        .split(',')
        .map(s => s.trim())
        .filter(Boolean)
        .flatMap(readManifests),
    });
  if (latencyMs > 0)
    server.faults.inject({
      kind: 'latency',
      ms: latencyMs,
      times: Number.POSITIVE_INFINITY,
    });
  return server;
}

/** The objects of a YAML file of one or more documents; an error names the file and line. */
export function readManifests(file: string): Array<Record<string, any>> {
  const docs = parseAllDocuments(fs.readFileSync(file, 'utf8'), {
    prettyErrors: true,
  });
  for (const doc of docs)
    if (doc.errors.length > 0)
      throw new Error(
        `KUBE_API_TEST_SERVER_MANIFESTS: ${file}: ${
          doc.errors[0].message.split('\n')[0]
        }`,
      );
  return docs
    .map(doc => doc.toJS())
    .filter(o => o !== null && typeof o === 'object');
}
