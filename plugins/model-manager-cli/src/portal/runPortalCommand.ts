import {
  APPLY_ANYWAY_REST,
  FLEET_STATES,
  formatDiagnosis,
  notReadyHeadline,
  preflightFailed,
  targetLabel,
  type PreflightCheck,
  toKubernetesYaml,
  type DeploymentResult,
  type FleetState,
  type FleetTarget,
  type ServerOverrides,
  type TargetSync,
} from '@model-manager/plugin-model-manager-common';
import type { CliIo } from '../runCli';
import { PortalClient, PortalError } from './PortalClient';

class UsageError extends Error {}

/** Commands that talk to a running portal instead of reading models.yaml. */
export const PORTAL_COMMANDS = [
  'deploy',
  'diff',
  'preflight',
  'undeploy',
  'status',
  'fleet',
  'rollout-plan',
] as const;
export type PortalCommand = (typeof PORTAL_COMMANDS)[number];

export interface PortalValues {
  portal?: string;
  token?: string;
  cluster?: string;
  namespace?: string;
  runtime?: string;
  version?: string;
  state?: string;
  json?: boolean;
  'dry-run'?: boolean;
  'include-held'?: boolean;
  force?: boolean;
  'skip-preflight'?: boolean;
}

/**
 * Runs a portal command. Exit codes: 0 done (diff: in sync), 1 refused or failed (diff: there are
 * changes), 2 bad usage.
 */
export async function runPortalCommand(
  command: PortalCommand,
  args: string[],
  values: PortalValues,
  overrides: ServerOverrides,
  io: CliIo,
  env: Record<string, string | undefined>,
): Promise<number> {
  const portal = values.portal ?? env.MODEL_MANAGER_PORTAL;
  if (!portal) {
    io.stderr(
      `model-manager ${command}: talks to a running portal; pass --portal URL (or set MODEL_MANAGER_PORTAL), e.g. --portal https://portal.example.com\n`,
    );
    return 2;
  }
  if (!/^https?:\/\/[^/]/i.test(portal)) {
    io.stderr(
      `model-manager ${command}: --portal ${portal} is not a URL the CLI can call; give it with its scheme, e.g. --portal http://${portal.replace(
        /^[a-z]+:\/*/i,
        '',
      )} (or https://)\n`,
    );
    return 2;
  }
  const client = PortalClient.create({
    portal,
    token: values.token ?? env.MODEL_MANAGER_TOKEN,
  });
  const out = (value: unknown, text: () => string) =>
    io.stdout(values.json ? `${JSON.stringify(value, null, 2)}\n` : text());
  const needModel = () => {
    if (!args[0])
      throw new UsageError(`model-manager ${command}: missing <model>`);
    return args[0];
  };
  const needTarget = () => {
    if (!values.cluster || !values.namespace)
      throw new UsageError(
        `model-manager ${command}: --cluster and --namespace are required`,
      );
    return { cluster: values.cluster, namespace: values.namespace };
  };
  try {
    switch (command) {
      case 'fleet': {
        if (
          values.state !== undefined &&
          !(FLEET_STATES as readonly string[]).includes(values.state)
        )
          throw new UsageError(
            `model-manager fleet: --state must be one of ${FLEET_STATES.join(
              ', ',
            )} (got '${values.state}')`,
          );
        const fleet = await client.fleet({
          cluster: values.cluster,
          namespace: values.namespace,
          runtime: values.runtime,
          version: values.version,
          state: values.state as FleetState | undefined,
        });
        out(fleet, () =>
          table(
            ['TARGET', 'RUNTIME', 'LIVE', 'STATE', 'SYNC', 'HELD', 'REVISION'],
            fleet.items.map(t => [
              targetLabel(t),
              t.runtime,
              t.liveVersion ?? '-',
              stateCell(t),
              t.sync ? syncCell(t.sync) : '-',
              t.sync?.hold ? `${t.sync.hold.version} (${t.sync.hold.by})` : '-',
              t.revision ? String(t.revision.revision) : '-',
            ]),
          ),
        );
        for (const e of fleet.errors) io.stderr(`warning: ${e.message}\n`);
        return 0;
      }
      case 'rollout-plan': {
        if (!values.runtime)
          throw new UsageError(
            'model-manager rollout-plan: --runtime is required (e.g. --runtime vllm)',
          );
        const plan = await client.rolloutPlan({
          runtime: values.runtime,
          version: values.version,
          cluster: values.cluster,
          namespace: values.namespace,
          includeHeld: values['include-held'] === true,
        });
        out(plan, () =>
          [
            `${plan.moves.length} target(s) would move, ${plan.stays.length} stay\n`,
            ...plan.moves.map(
              m =>
                `move ${targetLabel(m)}${
                  m.toVersion
                    ? ` ${m.fromVersion ?? '?'} -> ${m.toVersion}`
                    : ''
                }: ${m.changes
                  .flatMap(c =>
                    c.fields.length
                      ? c.fields.map(f => f.path)
                      : [`${c.kind} ${c.change}`],
                  )
                  .join(', ')}${
                  m.releasesHold ? ` (releases: ${m.releasesHold.text})` : ''
                }\n`,
            ),
            ...plan.stays.map(s => `stay ${targetLabel(s)}: ${s.reason}\n`),
          ].join(''),
        );
        return 0;
      }
      case 'status': {
        const status = await client.status(needModel());
        // The YAML of every target, then each diagnosis in words (targets not Ready).
        out(status, () =>
          status.items.length
            ? status.items
                .map(({ sync, ...item }) =>
                  [
                    ...(sync ? [describeSync(item, sync)] : []),
                    toKubernetesYaml([item]),
                    ...(item.diagnosis
                      ? formatDiagnosis(item.diagnosis).map(l => `${l}\n`)
                      : []),
                  ].join(''),
                )
                .join('')
            : `${args[0]} is not deployed anywhere\n`,
        );
        return 0;
      }
      case 'diff': {
        const diff = await client.diff(needModel(), needTarget(), overrides);
        out(diff, () =>
          diff.objects
            .map(o =>
              !o.exists
                ? `${o.kind} ${o.name}: would be created\n`
                : o.changes.length
                ? `${o.kind} ${o.name}:\n${o.changes
                    .map(
                      c =>
                        `  ${c.path}: ${formatValue(c.live)} -> ${formatValue(
                          c.rendered,
                        )}\n`,
                    )
                    .join('')}`
                : `${o.kind} ${o.name}: in sync\n`,
            )
            .join(''),
        );
        return diff.inSync ? 0 : 1;
      }
      case 'preflight': {
        const result = await client.preflight(
          needModel(),
          needTarget(),
          overrides,
        );
        out(result, () => describeChecks(result.checks));
        return preflightFailed(result.checks) ? 1 : 0;
      }
      case 'deploy': {
        const model = needModel();
        const target = needTarget();
        // The checks first (the portal runs them again, and refuses a fail unless skipped).
        if (!values.json) {
          const checks = await client.preflight(model, target, overrides);
          io.stdout(`preflight:\n${describeChecks(checks.checks)}`);
        }
        const result = await client.deploy(model, {
          ...target,
          ...overrides,
          dryRun: values['dry-run'] === true,
          force: values.force === true,
          ...(values['skip-preflight'] ? { skipPreflight: true } : {}),
        });
        out(result, () => describe(result));
        return result.ok ? 0 : 1;
      }
      case 'undeploy': {
        const result = await client.undeploy(needModel(), needTarget());
        out(result, () => describe(result));
        return result.ok ? 0 : 1;
      }
      default:
        return 2;
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`${e.message}\n`);
      return 2;
    }
    io.stderr(
      `model-manager ${command}: ${inCliWords(
        e instanceof PortalError ? e.message : (e as Error).message,
      )}\n`,
    );
    return 1;
  }
}

function describe(result: DeploymentResult): string {
  const lines = result.objects.map(
    o =>
      `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}: ${o.action}${
        o.message ? ` (${inCliWords(o.message)})` : ''
      }\n`,
  );
  const head =
    result.action === 'dry-run'
      ? 'dry run, nothing applied'
      : result.revision === undefined
      ? `${result.action}, no revision taken`
      : `revision ${result.revision} (${result.action})`;
  return `${lines.join('')}${head}${
    result.ok ? '' : `: failed: ${inCliWords(result.message ?? '')}`
  }\n`;
}

/**
 * The portal's messages name the REST field (`deploy with force: true`); on the command line that
 * is the `--force` flag.
 */
function inCliWords(message: string): string {
  return message
    .replace(/\bwith force: true\b/g, 'with --force')
    .replace(APPLY_ANYWAY_REST, 'Deploy with --skip-preflight to apply anyway');
}

/** A field value in a diff: JSON, or `(absent)` for a field that is not there (removed or added). */
function formatValue(value: unknown): string {
  return value === undefined ? '(absent)' : JSON.stringify(value);
}

/**
 * The state, and for NotReady what it waits for, as the portal's Deployments page says it:
 * `NotReady (waiting for the weights download)`, `NotReady (weights download failed)`,
 * `NotReady (waiting for KServe)`; the first word is the state `--state` filters on.
 */
function stateCell(t: FleetTarget): string {
  if (t.state !== 'NotReady') return t.state;
  const { words } = notReadyHeadline({
    awaitingKServe: t.awaitingKServe,
    downloadPhase: t.download?.phase,
  });
  return words ? `NotReady (${words})` : t.state;
}

/** `in-sync`, `differs: request-pin, drift`, or `unknown`. */
function syncCell(sync: TargetSync): string {
  if (sync.state !== 'differs') return sync.state;
  return `differs: ${[...new Set(sync.differences.map(d => d.reason))].join(
    ', ',
  )}`;
}

/** What runs, what a new deploy would apply, the hold and each difference with its reason. */
function describeSync(
  where: { cluster: string; namespace: string },
  sync: TargetSync,
): string {
  const server = (s: {
    version?: string;
    image?: string;
    env?: Record<string, string>;
    args?: string[];
  }) =>
    `${s.version ?? '-'} ${s.image ?? ''}${
      s.args?.length ? ` args ${s.args.join(' ')}` : ''
    }${
      s.env && Object.keys(s.env).length
        ? ` env ${Object.entries(s.env)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')}`
        : ''
    }`;
  const revision = sync.runs.revision
    ? `revision ${sync.runs.revision.revision} (${sync.runs.revision.action} by ${sync.runs.revision.actor}, ${sync.runs.revision.at})`
    : 'no revision on record';
  return [
    `# ${where.cluster}/${where.namespace}: ${sync.summary}\n`,
    `#   what runs: ${server(sync.runs)}; ${revision}\n`,
    `#   what a new deploy would apply: ${
      sync.newDeploy.error ?? server(sync.newDeploy)
    }\n`,
    ...sync.differences.map(
      d =>
        `#   ${d.reason} ${d.kind} ${d.name} ${d.path}: ${JSON.stringify(
          d.runs ?? null,
        )} (new deploy: ${JSON.stringify(d.newDeploy ?? null)}) - ${d.text}\n`,
    ),
  ].join('');
}

/** One line per check (`FAIL  title: message`), and its fix beneath. */
function describeChecks(checks: PreflightCheck[]): string {
  return checks
    .map(
      c =>
        `${c.status.toUpperCase().padEnd(7)} ${c.title}: ${c.message}\n${
          c.fix && c.status !== 'pass' ? `        fix: ${c.fix}\n` : ''
        }`,
    )
    .join('');
}

function table(header: string[], rows: string[][]): string {
  const width = header.map((h, i) =>
    Math.max(h.length, ...rows.map(r => r[i].length)),
  );
  const line = (cells: string[]) =>
    `${cells
      .map((c, i) => c.padEnd(width[i]))
      .join('  ')
      .trimEnd()}\n`;
  return [line(header), ...rows.map(line)].join('');
}
