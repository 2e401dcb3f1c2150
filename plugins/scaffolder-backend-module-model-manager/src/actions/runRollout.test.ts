import { defaultBatchSize } from './runRollout';

describe('defaultBatchSize', () => {
  it.each([
    { concurrency: 1, size: 50, rule: 'at least 50' },
    {
      concurrency: 4,
      size: 50,
      rule: 'the template default (4 at once) keeps 50',
    },
    { concurrency: 8, size: 96, rule: 'twelve rounds of the targets at once' },
    { concurrency: 16, size: 192, rule: 'twelve rounds at 16 at once' },
    {
      concurrency: 64,
      size: 200,
      rule: 'at most 200, what POST /rollouts/apply takes',
    },
  ])('$rule', ({ concurrency, size }) => {
    expect(defaultBatchSize(concurrency)).toBe(size);
  });
});
