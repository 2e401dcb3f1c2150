import type { RolloutPlan } from '@model-manager/plugin-model-manager-common';
import { planWords } from './VersionMatrix';

const target = (model: string) => ({
  model,
  cluster: 'local',
  namespace: 'models',
});
const move = (model: string) => ({
  ...target(model),
  fromVersion: '0.19.1',
  toVersion: '0.24.0',
  overrides: {},
  changes: [],
});
const stay = (model: string, why: 'up-to-date' | 'held') => ({
  ...target(model),
  liveVersion: '0.24.0',
  why,
  reason: why === 'held' ? 'held at 0.24.0 by a rollout' : 'runs 0.24.0',
});
const plan = (
  moves: RolloutPlan['moves'],
  stays: RolloutPlan['stays'],
): RolloutPlan => ({ runtime: 'vllm', moves, stays, errors: [] });

describe('planWords', () => {
  it('counts in words, one and many', () => {
    expect(planWords(plan([move('a')], [stay('b', 'up-to-date')]))).toBe(
      'Rolling out what models.yaml resolves now (no version) would move 1 target (0.19.1 -> 0.24.0); 1 other target would stay.',
    );
    expect(
      planWords(
        plan(
          [move('a'), move('b')],
          [stay('c', 'up-to-date'), stay('d', 'up-to-date')],
        ),
      ),
    ).toBe(
      'Rolling out what models.yaml resolves now (no version) would move 2 targets (0.19.1 -> 0.24.0); 2 other targets would stay.',
    );
  });

  it('says when nothing would move, and when nothing runs the runtime', () => {
    expect(
      planWords(plan([], [stay('a', 'up-to-date'), stay('b', 'up-to-date')])),
    ).toBe(
      'Rolling out what models.yaml resolves now (no version) would move nothing; 2 targets would stay.',
    );
    expect(planWords(plan([], []))).toBe(
      'No target runs vllm yet: nothing to roll out.',
    );
  });

  it('names the held targets and how to move them', () => {
    expect(planWords(plan([], [stay('a', 'held'), stay('b', 'held')]))).toBe(
      'Rolling out what models.yaml resolves now (no version) would move nothing; 2 held targets stay where a rollout or a request put them (a@local/models: held at 0.24.0 by a rollout; b@local/models: held at 0.24.0 by a rollout); tick "Move held targets too" in the rollout to move them.',
    );
  });
});
