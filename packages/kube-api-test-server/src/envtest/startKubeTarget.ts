/**
 * The Kubernetes API a test runs against, chosen by `MODEL_MANAGER_TEST_KUBE`: `double` (default,
 * the in-process test double) or `real` (kube-apiserver from `KUBEBUILDER_ASSETS`, behind
 * {@link RealKubeTarget}). A real server started once for a whole run is passed in
 * `MODEL_MANAGER_TEST_KUBE_ENVTEST` (JSON of `EnvtestConnection`, see scripts/test-real-kube.js);
 * without it, each call starts its own (about a minute on a loaded machine).
 */
import { KubeApiTestServer } from '../KubeApiTestServer';
import { EnvtestConnection, KubeEnvtest } from './KubeEnvtest';
import { KubeTarget } from './KubeTarget';
import { RealKubeTarget } from './RealKubeTarget';

export type KubeTargetKind = 'double' | 'real';

/** `MODEL_MANAGER_TEST_KUBE`, checked. */
export function kubeTargetKind(
  env: NodeJS.ProcessEnv = process.env,
): KubeTargetKind {
  const value = env.MODEL_MANAGER_TEST_KUBE ?? 'double';
  if (value !== 'double' && value !== 'real') {
    throw new Error(
      `MODEL_MANAGER_TEST_KUBE must be 'double' or 'real', not '${value}'`,
    );
  }
  return value;
}

/**
 * Starts the chosen target with `namespaces` present and empty (on a shared real server, the
 * objects earlier suites left in them are deleted first).
 */
export async function startKubeTarget(opts: {
  namespaces: string[];
  env?: NodeJS.ProcessEnv;
}): Promise<KubeTarget> {
  const env = opts.env ?? process.env;
  if (kubeTargetKind(env) === 'double')
    return KubeApiTestServer.start({ namespaces: opts.namespaces });
  const shared = env.MODEL_MANAGER_TEST_KUBE_ENVTEST;
  if (shared) {
    const upstream = KubeEnvtest.attach(
      JSON.parse(shared) as EnvtestConnection,
    );
    for (const ns of opts.namespaces) await upstream.createNamespace(ns);
    await upstream.clean(opts.namespaces);
    return RealKubeTarget.start(upstream);
  }
  const upstream = await KubeEnvtest.start({ namespaces: opts.namespaces });
  return RealKubeTarget.start(upstream, { ownsUpstream: true });
}
