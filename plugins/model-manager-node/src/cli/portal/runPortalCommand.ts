import {
  preflightFailed,
  targetLabel,
  type PreflightCheck,
  toKubernetesYaml,
  type DeploymentResult,
  type FleetState,
  type ServerOverrides,
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
        const fleet = await client.fleet({
          cluster: values.cluster,
          namespace: values.namespace,
          runtime: values.runtime,
          version: values.version,
          state: values.state as FleetState | undefined,
        });
        out(fleet, () =>
          table(
            [
              'TARGET',
              'RUNTIME',
              'LIVE',
              'STATE',
              'DRIFTED',
              'OUTDATED',
              'REVISION',
            ],
            fleet.items.map(t => [
              targetLabel(t),
              t.runtime,
              t.liveVersion ?? '-',
              t.state,
              t.drifted ? 'yes' : 'no',
              t.outdated ? `yes (${t.resolvedVersion ?? '?'})` : 'no',
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
                  .join(', ')}\n`,
            ),
            ...plan.stays.map(s => `stay ${targetLabel(s)}: ${s.reason}\n`),
          ].join(''),
        );
        return 0;
      }
      case 'status': {
        const status = await client.status(needModel());
        out(status, () =>
          status.items.length
            ? toKubernetesYaml(status.items)
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
                        `  ${c.path}: ${JSON.stringify(
                          c.live,
                        )} -> ${JSON.stringify(c.rendered)}\n`,
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
      `model-manager ${command}: ${
        e instanceof PortalError ? e.message : (e as Error).message
      }\n`,
    );
    return 1;
  }
}

function describe(result: DeploymentResult): string {
  const lines = result.objects.map(
    o =>
      `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}: ${o.action}${
        o.message ? ` (${o.message})` : ''
      }\n`,
  );
  const head =
    result.action === 'dry-run'
      ? 'dry run, nothing applied'
      : `revision ${result.revision} (${result.action})`;
  return `${lines.join('')}${head}${
    result.ok ? '' : `: failed: ${result.message}`
  }\n`;
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
