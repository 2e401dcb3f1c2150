import {
  secretKeysInObjects,
  secretNamesInObjects,
} from './secretNamesInObjects';

const obj = (manifest: unknown) => ({ manifest });

describe('secretNamesInObjects', () => {
  it.each([
    {
      rule: 'env valueFrom.secretKeyRef of a container',
      objects: [
        obj({
          spec: {
            template: {
              containers: [
                {
                  name: 'main',
                  env: [
                    { name: 'A', value: 'x' },
                    {
                      name: 'HF_TOKEN',
                      valueFrom: {
                        secretKeyRef: { name: 'hf-token', key: 'token' },
                      },
                    },
                  ],
                },
              ],
            },
          },
        }),
      ],
      names: ['hf-token'],
    },
    {
      rule: 'envFrom secretRef',
      objects: [
        obj({
          spec: { containers: [{ envFrom: [{ secretRef: { name: 'b' } }] }] },
        }),
      ],
      names: ['b'],
    },
    {
      rule: 'imagePullSecrets of a pod spec (InferenceService predictor)',
      objects: [
        obj({
          spec: {
            predictor: {
              imagePullSecrets: [{ name: 'regcred' }, { name: 'regcred2' }],
            },
          },
        }),
      ],
      names: ['regcred', 'regcred2'],
    },
    {
      rule: 'a secret volume',
      objects: [
        obj({
          spec: { volumes: [{ name: 'v', secret: { secretName: 'c' } }] },
        }),
      ],
      names: ['c'],
    },
    {
      rule: 'each name once over several objects, sorted',
      objects: [
        obj({
          spec: {
            env: [{ valueFrom: { secretKeyRef: { name: 'z', key: 'k' } } }],
          },
        }),
        obj({
          spec: {
            env: [{ valueFrom: { secretKeyRef: { name: 'z', key: 'k2' } } }],
            imagePullSecrets: [{ name: 'a' }],
          },
        }),
      ],
      names: ['a', 'z'],
    },
    {
      rule: 'no reference: none (a ConfigMap ref is not a Secret)',
      objects: [
        obj({
          spec: {
            env: [
              { name: 'X', value: 'secretKeyRef' },
              { valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' } } },
            ],
          },
        }),
      ],
      names: [],
    },
  ])('$rule', ({ objects, names }) => {
    expect(secretNamesInObjects(objects)).toEqual(names);
  });
});

describe('secretKeysInObjects', () => {
  it('lists the keys each Secret is read by (secretKeyRef), none for a Secret used whole, and which pull images', () => {
    const objects = [
      obj({
        spec: {
          env: [
            { valueFrom: { secretKeyRef: { name: 'hf-token', key: 'token' } } },
            { valueFrom: { secretKeyRef: { name: 'db', key: 'user' } } },
          ],
          envFrom: [{ secretRef: { name: 'whole' } }],
        },
      }),
      obj({
        spec: {
          env: [
            { valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
            { valueFrom: { secretKeyRef: { name: 'db', key: 'user' } } },
          ],
          imagePullSecrets: [{ name: 'pull' }],
        },
      }),
    ];
    expect(secretKeysInObjects(objects)).toEqual({
      db: { keys: ['password', 'user'], imagePull: false },
      'hf-token': { keys: ['token'], imagePull: false },
      pull: { keys: [], imagePull: true },
      whole: { keys: [], imagePull: false },
    });
  });
});
