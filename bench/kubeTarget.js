/*
 * The Kubernetes API a benchmark runs against, `--target double|real`:
 *   double (default)  the API test double in its own process (bench/kube-server-child.js), plain
 *                     HTTP on `port`;
 *   real              kube-apiserver v1.34.9 with etcd (bench/kube-envtest-child.js): TLS, token
 *                     auth, RBAC, from KUBEBUILDER_ASSETS (`eval "$(scripts/envtest-assets.sh)"`),
 *                     on a free port (about a minute to start on a loaded machine).
 * Both processes are separate from the benchmark's, so their CPU is not counted as ours.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { takeOption } = require('./benchArgs');

/** Removes `--target X` from argv and returns X (default double). */
function takeTarget(argv) {
  const target = takeOption(argv, '--target', 'double');
  if (target !== 'double' && target !== 'real')
    throw new Error(`--target must be double or real, not ${target}`);
  return target;
}

/**
 * Starts the target; resolves `{ url, child }` once it answers. `env` is passed on
 * (KUBE_LATENCY_MS, KUBE_NAMESPACES, KUBE_NODE_ARGS for the double).
 */
function startKube(target, { port, env = {} }) {
  const script =
    target === 'real' ? 'kube-envtest-child.js' : 'kube-server-child.js';
  const child = spawn(
    process.execPath,
    [
      ...(target === 'double'
        ? (process.env.KUBE_NODE_ARGS ?? '').split(' ').filter(Boolean)
        : []),
      path.join(__dirname, script),
    ],
    {
      env: { ...process.env, KUBE_PORT: String(port), ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', d => {
      out += String(d);
      const ready = /READY (\S+)/.exec(out);
      if (ready) resolve({ url: ready[1], child });
    });
    child.on('exit', code =>
      reject(new Error(`${script} exited (${code}) before it was ready`)),
    );
  });
}

/** CPU seconds (user + system) of a process and every process below it, from /proc. */
function cpuTree(pid) {
  const stats = new Map();
  for (const entry of fs.readdirSync('/proc').filter(e => /^\d+$/.test(e))) {
    try {
      const f = fs
        .readFileSync(`/proc/${entry}/stat`, 'utf8')
        .split(') ')[1]
        .split(' ');
      stats.set(Number(entry), {
        parent: Number(f[1]),
        cpu: (Number(f[11]) + Number(f[12])) / 100,
      });
    } catch {
      // the process has gone
    }
  }
  const below = p => {
    for (let q = p; q > 1; q = stats.get(q)?.parent ?? 0)
      if (q === pid) return true;
    return false;
  };
  let sum = 0;
  for (const [p, s] of stats) if (below(p)) sum += s.cpu;
  return sum;
}

module.exports = { takeTarget, startKube, cpuTree };
