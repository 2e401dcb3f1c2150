import { sameContent } from './sameContent';

// The live Job and kube-apiserver v1.34.9's answers to dry-run applies of it (trimmed).
const live = {
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: {
    name: 'dl',
    namespace: 'models',
    resourceVersion: '205',
    generation: 1,
    managedFields: [{ manager: 'model-manager', time: '2026-12-02T00:34:25Z' }],
  },
  spec: { backoffLimit: 2 },
  status: { active: 1 },
};
const changedAnswer = {
  ...live,
  metadata: {
    ...live.metadata,
    generation: 2,
    managedFields: [{ manager: 'model-manager', time: '2026-12-02T00:34:28Z' }],
  },
  spec: { backoffLimit: 5 },
};

describe('sameContent', () => {
  it.each([
    {
      rule: 'an answer equal to the live object is the same',
      answer: live,
      same: true,
    },
    {
      rule: 'a changed spec is a change although the resourceVersion is the live one',
      answer: changedAnswer,
      same: false,
    },
    {
      rule: 'a new label is a change',
      answer: {
        ...live,
        metadata: { ...live.metadata, labels: { team: 'a' } },
      },
      same: false,
    },
    {
      rule: 'managedFields times and generation alone are no change',
      answer: { ...changedAnswer, spec: live.spec },
      same: true,
    },
    {
      rule: 'status written by a controller meanwhile is no change',
      answer: { ...live, status: { succeeded: 1 } },
      same: true,
    },
    {
      rule: 'no live object is a change',
      answer: live,
      same: false,
      absent: true,
    },
  ])('$rule', ({ answer, same, absent }) => {
    expect(sameContent(absent ? undefined : live, answer)).toBe(same);
  });
});
