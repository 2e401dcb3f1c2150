import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  CatalogError,
  explainServer,
  formatProblem,
  namespaceProblem,
  parseEnvSecret,
  SECRET_VALUE_REFUSAL,
  validateOverrides,
  renderGitOpsLayout,
  renderManifests,
  resolveServer,
  toKubernetesYaml,
  toKubernetesYamlStream,
  type Catalog,
  type ServerOverrides,
} from '@model-manager/plugin-model-manager-common';
import { loadCatalog } from '@model-manager/plugin-model-manager-node';
import { formatExplainTable } from './formatExplainTable';
import { fromCwd, offlineMisuse } from './offlineUsage';
import {
  PORTAL_COMMANDS,
  runPortalCommand,
  type PortalCommand,
} from './portal/runPortalCommand';

export const USAGE = `Usage:
  model-manager validate [models.yaml] [--runtimes DIR]
  model-manager resolve <model> [--server-version V] [--env K=V]... [--env-secret K=S/KEY]... [--arg A]... [--explain] [--json]
  model-manager render <model> [--server-version V] [--env K=V]... [--env-secret K=S/KEY]... [--arg A]... [--namespace NS] [-o yaml|json]
  model-manager render <model> --out-dir DIR --cluster C --namespace NS [overrides]
                         GitOps: DIR/<C>/<NS>/<model>/, one file per object and a kustomization.yaml
  model-manager list [--json]

Through a running portal (sign-in, permissions, audit and history apply):
  model-manager deploy <model> --cluster C --namespace NS [--server-version V] [--env K=V]... [--env-secret K=S/KEY]... [--arg A]... [--dry-run] [--force] [--skip-preflight]
                         prints the preflight checks first; a failed check refuses the deploy unless --skip-preflight
  model-manager preflight <model> --cluster C --namespace NS [overrides]   exit 1 when a check fails
  model-manager diff <model> --cluster C --namespace NS [overrides]      exit 1 when a deploy would change something
  model-manager undeploy <model> --cluster C --namespace NS
  model-manager status <model>
  model-manager fleet [--cluster C] [--namespace NS] [--runtime R] [--version V] [--state S]
  model-manager rollout-plan --runtime R [--version V] [--cluster C] [--namespace NS] [--include-held]
                                          held targets (a version a rollout or request set) stay unless --include-held

Options:
  -f, --models FILE      models.yaml to read (default: ./models.yaml)
      --runtimes DIR     runtimes folder (default: runtimes/ beside models.yaml)
      --server-version V request a runtime version (versioned runtimes only)
      --env K=V          request env override; K= (empty) sets empty, K- removes an inherited var
      --env-secret K=S/KEY
                         request env read from key KEY of the Secret S in the target namespace
                         (valueFrom.secretKeyRef), e.g. HF_TOKEN=hf-token/token. A request never
                         carries a secret's value: --env HF_TOKEN=hf_... is refused
      --arg A            request arg override, one flag per --arg (e.g. --arg=--max-model-len=4096)
      --explain          show every value with the layer and file:line that set it
  -n, --namespace NS     namespace of rendered objects (default: default)
  -o, --output FMT       yaml (default) or json
      --out-dir DIR      render: write the GitOps layout under DIR instead of printing
      --portal URL       the portal's base URL (or MODEL_MANAGER_PORTAL)
      --token T          a Backstage token (or MODEL_MANAGER_TOKEN), e.g. a static external-access token
      --json             machine-readable output

Exit codes: 0 done, 1 refused or failed (diff: changes), 2 bad usage.
`;

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  /** Environment (MODEL_MANAGER_PORTAL, MODEL_MANAGER_TOKEN); default process.env. */
  env?: Record<string, string | undefined>;
}

/** Runs the CLI; returns the exit code. Errors are one line per problem on stderr, exit 1. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        models: { type: 'string', short: 'f' },
        runtimes: { type: 'string' },
        'server-version': { type: 'string' },
        env: { type: 'string', multiple: true },
        'env-secret': { type: 'string', multiple: true },
        arg: { type: 'string', multiple: true },
        explain: { type: 'boolean' },
        json: { type: 'boolean' },
        namespace: { type: 'string', short: 'n' },
        output: { type: 'string', short: 'o' },
        'out-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        portal: { type: 'string' },
        token: { type: 'string' },
        cluster: { type: 'string' },
        runtime: { type: 'string' },
        version: { type: 'string' },
        state: { type: 'string' },
        'dry-run': { type: 'boolean' },
        'include-held': { type: 'boolean' },
        force: { type: 'boolean' },
        'skip-preflight': { type: 'boolean' },
      },
    });
  } catch (e) {
    io.stderr(`model-manager: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  const asked = values.help || command === 'help';
  if (asked || !command) {
    (asked ? io.stdout : io.stderr)(USAGE);
    return asked ? 0 : 2;
  }
  const nsProblem =
    values.namespace === undefined
      ? undefined
      : namespaceProblem(values.namespace);
  if (nsProblem) {
    io.stderr(`model-manager ${command}: --namespace: ${nsProblem}\n`);
    return 2;
  }
  // A malformed override is bad usage (exit 2), whichever command it is given to.
  let overrides: ServerOverrides;
  try {
    overrides = parseOverrides(values);
  } catch (e) {
    io.stderr(`model-manager ${command}: ${(e as Error).message}\n`);
    return 2;
  }
  if ((PORTAL_COMMANDS as readonly string[]).includes(command)) {
    return runPortalCommand(
      command as PortalCommand,
      rest,
      values,
      overrides,
      io,
      io.env ?? process.env,
    );
  }
  const misuse = offlineMisuse(command, rest, values);
  if (misuse) {
    io.stderr(`model-manager ${command}: ${misuse}\n`);
    return 2;
  }
  const modelsArg =
    command === 'validate' && rest[0]
      ? rest[0]
      : values.models ?? 'models.yaml';
  const location = {
    modelsFile: path.resolve(io.cwd, modelsArg),
    runtimesDir: values.runtimes
      ? path.resolve(io.cwd, values.runtimes)
      : undefined,
  };

  try {
    const catalog = await loadCatalog(location);
    switch (command) {
      case 'validate': {
        const count = Object.keys(catalog.models).length;
        for (const w of catalog.warnings) io.stderr(`warning: ${w}\n`);
        io.stdout(
          `${modelsArg}: ok (${count} models, ${
            Object.keys(catalog.runtimes).length
          } runtimes)\n`,
        );
        return 0;
      }
      case 'list':
        return list(catalog, io, values.json ?? false);
      case 'resolve':
      case 'render': {
        const modelName = rest[0];
        if (!modelName) {
          io.stderr(`model-manager ${command}: missing <model>\n${USAGE}`);
          return 2;
        }
        const server = resolveServer(catalog, modelName, overrides, {
          locate: command === 'resolve',
        });
        if (command === 'resolve') {
          if (values.json) io.stdout(`${JSON.stringify(server, null, 2)}\n`);
          else if (values.explain)
            io.stdout(formatExplainTable(server.model, explainServer(server)));
          else io.stdout(toKubernetesYaml(summary(server)));
          return 0;
        }
        if (values['out-dir'] !== undefined)
          return writeLayout(catalog, server, values, io);
        const objects = renderManifests(catalog, server, {
          namespace: values.namespace ?? 'default',
        });
        const format = values.output ?? 'yaml';
        if (format === 'json') {
          io.stdout(
            `${JSON.stringify(
              objects.length === 1
                ? objects[0].manifest
                : {
                    apiVersion: 'v1',
                    kind: 'List',
                    items: objects.map(o => o.manifest),
                  },
              null,
              2,
            )}\n`,
          );
        } else if (format === 'yaml') {
          io.stdout(toKubernetesYamlStream(objects.map(o => o.manifest)));
        } else {
          io.stderr(
            `model-manager render: unknown output format '${format}'; use yaml or json\n`,
          );
          return 2;
        }
        return 0;
      }
      default:
        io.stderr(`model-manager: unknown command '${command}'\n${USAGE}`);
        return 2;
    }
  } catch (e) {
    if (e instanceof CatalogError) {
      // The loader names files from the folder holding models.yaml; say them from where the
      // command ran, so file:line opens the right file with -f elsewhere.
      const base = path.dirname(location.modelsFile);
      for (const p of e.problems)
        io.stderr(
          `${formatProblem({ ...p, file: fromCwd(p.file, base, io.cwd) })}\n`,
        );
      if (
        e.problems.some(
          p =>
            /^cannot read: ENOENT/.test(p.message) &&
            path.resolve(base, p.file) === location.modelsFile,
        )
      )
        io.stderr(
          `model-manager ${command}: run it in the folder that holds models.yaml, or pass -f FILE (--models)\n`,
        );
    } else {
      io.stderr(`model-manager: ${(e as Error).message}\n`);
    }
    return 1;
  }
}

/**
 * `render --out-dir`: the GitOps layout of `renderGitOpsLayout` (what `model-manager:render`
 * writes into a scaffolder workspace) under DIR. The model's folder is replaced, so files of
 * objects it no longer has go; nothing else under DIR is touched.
 */
function writeLayout(
  catalog: Catalog,
  server: ReturnType<typeof resolveServer>,
  values: { 'out-dir'?: string; cluster?: string; namespace?: string },
  io: CliIo,
): number {
  const { cluster, namespace } = values;
  if (!cluster || !namespace) {
    io.stderr(
      `model-manager render --out-dir: --cluster and --namespace are required (the layout is <cluster>/<namespace>/<model>/)\n`,
    );
    return 2;
  }
  const objects = renderManifests(catalog, server, { namespace });
  const files = renderGitOpsLayout(objects, {
    cluster,
    namespace,
    model: server.model,
  });
  const root = path.resolve(io.cwd, values['out-dir']!);
  const dir = path.join(root, path.dirname(files[files.length - 1].path));
  fs.rmSync(dir, { recursive: true, force: true });
  for (const file of files) {
    const target = path.join(root, file.path);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, file.content);
    io.stdout(`${path.relative(io.cwd, target)}\n`);
  }
  return 0;
}

function parseOverrides(values: {
  'server-version'?: string;
  env?: string[];
  'env-secret'?: string[];
  arg?: string[];
}): ServerOverrides {
  const overrides: ServerOverrides = {};
  if (values['server-version'] !== undefined)
    overrides.serverVersion = values['server-version'];
  if (values.env) {
    overrides.env = {};
    for (const item of values.env) {
      const eq = item.indexOf('=');
      if (eq === -1 && item.endsWith('-'))
        overrides.env[item.slice(0, -1)] = null;
      else if (eq > 0) overrides.env[item.slice(0, eq)] = item.slice(eq + 1);
      else
        throw new Error(
          `--env ${item}: expected NAME=value (or NAME- to remove an inherited variable)`,
        );
    }
  }
  for (const item of values['env-secret'] ?? []) {
    const parsed = parseEnvSecret(item);
    if ('problem' in parsed) throw new Error(`--${parsed.problem}`);
    overrides.env = { ...overrides.env, [parsed.name]: parsed.ref };
  }
  if (values.arg) overrides.args = [...values.arg];
  // Refused here too, so a secret's value never leaves this machine (in a URL or a body).
  const refused = validateOverrides(overrides).filter(p =>
    p.message.startsWith(SECRET_VALUE_REFUSAL),
  );
  if (refused.length > 0)
    throw new Error(refused.map(formatProblem).join('\n'));
  return overrides;
}

function summary(server: ReturnType<typeof resolveServer>) {
  return {
    model: server.model,
    model_id: server.modelId,
    runtime: server.runtime,
    kind: server.kind,
    category: server.category,
    ...(server.version ? { version: server.version.value } : {}),
    image: server.image.value,
    cpu: server.resources.cpu.value,
    memory: server.resources.memory.value,
    ...(server.resources.kvCacheGb
      ? { kv_cache_gb: server.resources.kvCacheGb.value }
      : {}),
    ...(server.weightFormat
      ? { weight_format: server.weightFormat.value }
      : {}),
    env: Object.fromEntries(server.env.map(e => [e.name, e.value])),
    args: server.args.map(a => a.value),
  };
}

function list(catalog: Catalog, io: CliIo, json: boolean): number {
  const rows = Object.values(catalog.models).map(m => {
    const runtime = catalog.runtimes[m.config.server.runtime];
    return {
      model: m.name,
      model_id: m.config.model_id,
      runtime: runtime.name,
      category: m.config.category,
      version: runtime.versioned
        ? m.config.server.server_version ??
          `${runtime.config.default_version} (default)`
        : '-',
    };
  });
  if (json) {
    io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  const cols = ['model', 'runtime', 'category', 'version', 'model_id'] as const;
  const width = cols.map(c =>
    Math.max(c.length, ...rows.map(r => r[c].length)),
  );
  const line = (cells: string[]) =>
    `${cells
      .map((c, i) => c.padEnd(width[i]))
      .join('  ')
      .trimEnd()}\n`;
  io.stdout(line(cols.map(c => c.toUpperCase())));
  for (const r of rows) io.stdout(line(cols.map(c => r[c])));
  return 0;
}
