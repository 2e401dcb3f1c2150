import type { DeploymentHistoryItem } from '@model-manager/plugin-model-manager-common';
import { isLive, liveRevisions, revisionText } from './historyText';

describe('revisionText', () => {
  it.each([
    {
      rule: 'a revision is its number',
      row: { revision: 3, action: 'deploy' },
      text: '3',
    },
    { rule: 'a dry run has none', row: { action: 'dry-run' }, text: 'dry run' },
    {
      rule: 'a failed deploy took none',
      row: { action: 'deploy' },
      text: 'none',
    },
    {
      rule: 'an undeploy of nothing took none',
      row: { action: 'undeploy' },
      text: 'none',
    },
  ] as const)('$rule', ({ row, text }) => {
    expect(revisionText(row)).toBe(text);
  });
});

describe('liveRevisions', () => {
  const row = (
    revision: number | undefined,
    action: string,
    outcome = 'succeeded',
    namespace = 'models',
  ) =>
    ({
      revision,
      action,
      outcome,
      cluster: 'local',
      namespace,
      model: 'm',
      actor: 'user:default/a',
      createdAt: '2026-12-01T00:00:00Z',
    } as unknown as DeploymentHistoryItem);
  it.each([
    {
      rule: 'the newest deploy is live',
      history: [row(2, 'deploy'), row(1, 'deploy')],
      live: { 'local/models': 2 },
    },
    {
      rule: 'a dry run after it leaves it live',
      history: [row(undefined, 'dry-run'), row(1, 'deploy')],
      live: { 'local/models': 1 },
    },
    {
      rule: 'a failed deploy after it leaves it live',
      history: [row(undefined, 'deploy', 'failed'), row(1, 'deploy')],
      live: { 'local/models': 1 },
    },
    {
      rule: 'a rollback is live once it succeeded',
      history: [row(3, 'rollback'), row(2, 'deploy'), row(1, 'deploy')],
      live: { 'local/models': 3 },
    },
    {
      rule: 'after an undeploy nothing is live there',
      history: [row(2, 'undeploy'), row(1, 'deploy')],
      live: {},
    },
    {
      rule: 'each namespace has its own',
      history: [row(2, 'deploy', 'succeeded', 'b'), row(1, 'deploy')],
      live: { 'local/b': 2, 'local/models': 1 },
    },
  ])('$rule', ({ history, live }) => {
    expect(Object.fromEntries(liveRevisions(history))).toEqual(live);
    for (const r of history)
      expect(isLive(r, liveRevisions(history))).toBe(
        r.revision !== undefined &&
          (live as Record<string, number>)[`${r.cluster}/${r.namespace}`] ===
            r.revision,
      );
  });
});
