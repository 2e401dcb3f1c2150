/*
 * kubectl as the benchmarks run it beside our apply path: the rendered objects in a file, a
 * kubeconfig for one API server, and `kubectl apply --server-side -f` with the same flags in every
 * benchmark, so their kubectl figures compare.
 */
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const { promisify } = require('node:util');
const { stringify } = require('yaml');

// Async: an API test server may run in the benchmark's own process, which a blocking exec would
// deadlock.
const run = promisify(execFile);

/** Writes these manifests to `file` as one multi-document YAML file. */
function writeManifests(file, manifests) {
  fs.writeFileSync(file, manifests.map(m => stringify(m)).join('---\n'));
}

/**
 * Writes a kubeconfig for the API server at `server` to `file`. With a `token` (a real
 * kube-apiserver: TLS with its own certificate) kubectl sends it and skips TLS verification;
 * without one it sends no credentials (the plain-HTTP test double takes it as system:anonymous).
 */
function writeKubeconfig(file, server, token) {
  fs.writeFileSync(
    file,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'bench',
          cluster: {
            server,
            ...(token ? { 'insecure-skip-tls-verify': true } : {}),
          },
        },
      ],
      users: [{ name: 'anonymous', user: token ? { token } : {} }],
      contexts: [
        { name: 'bench', context: { cluster: 'bench', user: 'anonymous' } },
      ],
      'current-context': 'bench',
    }),
  );
}

/** The arguments of kubectl for a server-side apply of `file`, taking every field over. */
function kubectlApplyArgs(kubeconfig, file) {
  return [
    '--kubeconfig',
    kubeconfig,
    'apply',
    '--server-side',
    '--field-manager=kubectl-bench',
    '--force-conflicts',
    '--validate=false',
    '-f',
    file,
  ];
}

/** Runs `kubectl apply --server-side -f file`; resolves with its output once it exits 0. */
function kubectlApply(kubeconfig, file) {
  return run('kubectl', kubectlApplyArgs(kubeconfig, file), {
    maxBuffer: 64 << 20,
  });
}

module.exports = {
  writeManifests,
  writeKubeconfig,
  kubectlApplyArgs,
  kubectlApply,
};
