import { revisionText } from './historyText';

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
