import type { DeploymentResult } from '../client';
import { logDeployment } from './logDeployment';

const result = (over: Partial<DeploymentResult>): DeploymentResult => ({
  ok: true,
  action: 'deploy',
  model: 'phi',
  cluster: 'local',
  namespace: 'models',
  objects: [],
  ...over,
});

const JOB = {
  apiVersion: 'batch/v1',
  kind: 'Job',
  name: 'phi-download',
  namespace: 'models',
};

describe('logDeployment', () => {
  const lines = (r: DeploymentResult) => {
    const out: string[] = [];
    logDeployment({ info: l => out.push(l), error: l => out.push(l) }, r);
    return out;
  };

  it.each([
    {
      rule: 'a replaced object says why',
      result: result({
        revision: 2,
        objects: [
          {
            ...JOB,
            action: 'replaced',
            message:
              'spec.template cannot be changed on a live object (field is immutable): deleted (propagationPolicy Background) and created again',
          },
        ],
      }),
      expected: [
        'Job models/phi-download: replaced (spec.template cannot be changed on a live object (field is immutable): deleted (propagationPolicy Background) and created again)',
        'revision 2 (deploy): model phi on cluster local, namespace models',
      ],
    },
    {
      rule: 'a dry run says the object would be replaced',
      result: result({
        action: 'dry-run',
        objects: [
          {
            ...JOB,
            action: 'replaced',
            message: 'spec.template cannot be changed on a live object',
          },
        ],
      }),
      expected: [
        'Job models/phi-download: would be replaced (spec.template cannot be changed on a live object)',
        'dry run, nothing applied and no revision taken: model phi on cluster local, namespace models',
      ],
    },
    {
      rule: 'a failed deploy took no revision',
      result: result({
        ok: false,
        objects: [{ ...JOB, action: 'failed', reason: 'Invalid' }],
      }),
      expected: [
        'Job models/phi-download: failed (Invalid)',
        'deploy failed, no revision taken: model phi on cluster local, namespace models',
      ],
    },
  ])('$rule', ({ result: r, expected }) => {
    expect(lines(r)).toEqual(expected);
  });
});
