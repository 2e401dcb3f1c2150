import { secretNamesInObjects } from './secretNamesInObjects';

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
