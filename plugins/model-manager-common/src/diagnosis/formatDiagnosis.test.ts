import { formatDiagnosis } from './formatDiagnosis';

describe('formatDiagnosis', () => {
  it('prints the headline, the fix, the container states, Warning Events and the last log lines', () => {
    expect(
      formatDiagnosis(
        {
          cluster: 'dev',
          namespace: 'models',
          headline: 'the node cannot pull the serving image',
          findings: [
            {
              signature: 'image-pull',
              where: 'container',
              subject: 'container main of pod p',
              text: 'ImagePullBackOff',
              meaning: 'the node cannot pull the serving image',
              fix: 'check the image',
              source: 'kubernetes',
            },
          ],
          pods: [
            {
              name: 'p',
              role: 'server',
              phase: 'Pending',
              ready: false,
              containers: [
                {
                  name: 'main',
                  init: false,
                  ready: false,
                  state: 'waiting',
                  reason: 'ImagePullBackOff',
                  restartCount: 0,
                },
              ],
            },
          ],
          events: [
            {
              type: 'Normal',
              reason: 'Scheduled',
              message: 'ok',
              object: 'Pod/p',
              count: 1,
            },
            {
              type: 'Warning',
              reason: 'Failed',
              message: 'not found',
              object: 'Pod/p',
              count: 2,
            },
          ],
          logs: [
            {
              pod: 'p',
              container: 'main',
              previous: true,
              lines: ['a', 'b', 'c'],
            },
          ],
          problems: ['cannot read pod logs on cluster dev: RBAC'],
        },
        2,
      ),
    ).toEqual([
      'why not ready on dev/models: the node cannot pull the serving image',
      '  fix: check the image',
      '  cannot read pod logs on cluster dev: RBAC',
      '  pod p (Pending) container main: waiting, ImagePullBackOff',
      '  event Failed on Pod/p: not found',
      '  log of p/main (previous run):',
      '    | b',
      '    | c',
    ]);
  });
});
