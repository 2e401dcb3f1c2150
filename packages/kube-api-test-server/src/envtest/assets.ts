/**
 * Where the real kube-apiserver and etcd come from: a `KUBEBUILDER_ASSETS` folder holding
 * `kube-apiserver` and `etcd`, as controller-runtime's envtest reads it
 * (sigs.k8s.io/controller-runtime/pkg/internal/testing/process: `KUBEBUILDER_ASSETS`).
 */
import fs from 'node:fs';
import path from 'node:path';

/** How to get the assets, printed when a suite skips or fails without them. */
export const ENVTEST_ASSETS_HOWTO =
  'set KUBEBUILDER_ASSETS to a folder holding kube-apiserver and etcd: ' +
  '`eval "$(scripts/envtest-assets.sh)"` unpacks test-assets/envtest/kube-apiserver.xz ' +
  "(v1.34.9) and links Debian's etcd (apt-get install -y etcd-server)";

export type EnvtestAssets = { kubeApiserver: string; etcd: string };

/**
 * The binaries named by `KUBEBUILDER_ASSETS`, or why they cannot be used. Never reads outside
 * that folder.
 */
export function findEnvtestAssets(
  env: NodeJS.ProcessEnv = process.env,
): { assets: EnvtestAssets } | { missing: string } {
  const dir = env.KUBEBUILDER_ASSETS;
  if (!dir)
    return {
      missing: `KUBEBUILDER_ASSETS is not set; ${ENVTEST_ASSETS_HOWTO}`,
    };
  const assets = {
    kubeApiserver: path.join(dir, 'kube-apiserver'),
    etcd: path.join(dir, 'etcd'),
  };
  for (const file of Object.values(assets)) {
    try {
      fs.accessSync(file, fs.constants.X_OK);
    } catch {
      return {
        missing: `KUBEBUILDER_ASSETS=${dir} has no executable ${path.basename(
          file,
        )}; ${ENVTEST_ASSETS_HOWTO}`,
      };
    }
  }
  return { assets };
}

/**
 * Whether the real-server suites run: with the assets, yes; without them, they skip with a
 * message saying how to get them, except in CI (`CI` set), where missing assets fail the run.
 */
export function envtestAvailability(
  env: NodeJS.ProcessEnv = process.env,
): { run: true; assets: EnvtestAssets } | { run: false; reason: string } {
  const found = findEnvtestAssets(env);
  if ('assets' in found) return { run: true, assets: found.assets };
  if (env.CI) {
    throw new Error(
      `The real kube-apiserver suites must run in CI, but ${found.missing}`,
    );
  }
  return { run: false, reason: found.missing };
}
