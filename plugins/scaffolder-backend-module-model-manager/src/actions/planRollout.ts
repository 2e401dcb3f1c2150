import type {
  BackstageCredentials,
  LoggerService,
} from '@backstage/backend-plugin-api';
import {
  targetLabel,
  type RolloutMove,
  type RolloutPlan,
} from '@model-manager/plugin-model-manager-common';
import type { ModelManagerClient } from '../client';

/** What a rollout plans over: the `GET /rollouts/plan` query as a template step gives it. */
export type PlanInput = {
  runtime: string;
  version?: string;
  cluster?: string;
  namespace?: string;
  includeHeld?: boolean;
};

/**
 * Reads the rollout's plan once per task: checkpointed (`rollout-plan-<runtime>-<version>`), so a
 * resumed task works through the same targets in the same order. The task state is written again
 * at every checkpoint, so a real run keeps each move without its field changes (logged by
 * {@link logPlan}, and not needed to apply it). A dry run keeps them, to log them.
 */
export async function readPlan(options: {
  client: ModelManagerClient;
  credentials: BackstageCredentials;
  input: PlanInput;
  dryRun: boolean;
  checkpoint: <T>(key: string, fn: () => Promise<T>) => Promise<T>;
}): Promise<RolloutPlan> {
  const { input, dryRun } = options;
  const query = {
    runtime: input.runtime,
    ...(input.version ? { version: input.version } : {}),
    ...(input.cluster ? { cluster: input.cluster } : {}),
    ...(input.namespace ? { namespace: input.namespace } : {}),
    ...(input.includeHeld ? { includeHeld: true } : {}),
  };
  return options.checkpoint(
    `rollout-plan-${input.runtime}-${input.version ?? 'resolved'}${
      input.includeHeld ? '-held' : ''
    }`,
    async () => {
      const full = await options.client.rolloutPlan(query, options.credentials);
      return dryRun ? full : { ...full, moves: full.moves.map(withoutChanges) };
    },
  );
}

/** A move without its field changes and preflight checks: what the apply steps need. */
export function withoutChanges(move: RolloutMove): RolloutMove {
  const { changes: _, preflight: __, ...rest } = move;
  return { ...rest, changes: [] };
}

/** The targets a plan leaves as they are, and why, as the actions' `unchanged` output. */
export function staysOf(plan: RolloutPlan) {
  return plan.stays.map(s => ({
    target: targetLabel(s),
    why: s.why,
    reason: s.reason,
  }));
}

/**
 * The plan in the task log: every target that moves with the fields that change (a dry run), or
 * how many move from which version to which (a real run, which then logs each target as it moves);
 * and every target that stays, and why.
 */
export function logPlan(
  logger: Pick<LoggerService, 'info'>,
  plan: RolloutPlan,
  detailed: boolean,
) {
  logger.info(
    `plan for runtime ${plan.runtime}${
      plan.version ? ` toward ${plan.version}` : ''
    }: ${plan.moves.length} target(s) to move, ${plan.stays.length} staying`,
  );
  if (!detailed) {
    const counts = new Map<string, number>();
    for (const m of plan.moves) {
      const step = m.toVersion
        ? `${m.fromVersion ?? '?'} -> ${m.toVersion}`
        : 'objects changed, same version';
      counts.set(step, (counts.get(step) ?? 0) + 1);
    }
    for (const [step, count] of counts)
      logger.info(`  move ${step}: ${count} target(s)`);
  }
  for (const m of detailed ? plan.moves : []) {
    const fields = m.changes.flatMap(c =>
      c.change === 'changed'
        ? c.fields.map(f => f.path)
        : [`${c.kind} ${c.name} ${c.change}`],
    );
    logger.info(
      `  move ${targetLabel(m)}${
        m.toVersion ? ` ${m.fromVersion ?? '?'} -> ${m.toVersion}` : ''
      }: ${fields.slice(0, 6).join(', ')}${
        fields.length > 6 ? `, and ${fields.length - 6} more` : ''
      }${m.releasesHold ? ` (releases: ${m.releasesHold.text})` : ''}`,
    );
  }
  for (const s of plan.stays)
    logger.info(`  stay ${targetLabel(s)}: ${s.reason}`);
  for (const e of plan.errors)
    logger.info(`  cluster ${e.cluster} could not be read: ${e.message}`);
}
