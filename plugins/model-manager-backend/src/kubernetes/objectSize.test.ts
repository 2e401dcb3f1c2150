import { InputError } from '@backstage/errors';
import type { RenderedObject } from '@model-manager/plugin-model-manager-common';
import { checkObjectSizes, largestField, MAX_OBJECT_BYTES } from './objectSize';

const job = (
  args: string[],
  env: Array<{ name: string; value: string }> = [],
) =>
  ({
    apiVersion: 'batch/v1',
    kind: 'Job',
    name: 'x-download',
    namespace: 'models',
    applyPolicy: 'apply',
    source: 'templates/weights-download-job.yaml',
    manifest: {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'x-download', namespace: 'models' },
      spec: { template: { spec: { containers: [{ name: 'c', args, env }] } } },
    },
  } as RenderedObject);

describe('largestField', () => {
  it.each([
    {
      rule: 'one large string is named down to its index',
      value: job(['--a', 'x'.repeat(10_000)]).manifest,
      path: 'spec.template.spec.containers[0].args[1]',
    },
    {
      rule: 'many small values are named as the list that holds them',
      value: job(Array.from({ length: 1000 }, (_, i) => `--flag-${i}`))
        .manifest,
      path: 'spec.template.spec.containers[0].args',
    },
    {
      rule: 'a large env value is named by its index',
      value: job([], [{ name: 'A', value: 'y'.repeat(10_000) }]).manifest,
      path: 'spec.template.spec.containers[0].env[0].value',
    },
    {
      rule: 'an object with no dominant field is the object',
      value: { a: 'x'.repeat(10), b: 'y'.repeat(10), c: 'z'.repeat(10) },
      path: '(the object)',
    },
  ])('$rule', ({ value, path }) => {
    expect(largestField(value).path).toBe(path);
  });
});

describe('checkObjectSizes', () => {
  it('accepts an object up to the limit', () => {
    expect(() => checkObjectSizes([job(['x'.repeat(1000)])])).not.toThrow();
    const atLimit = job(['']);
    const room =
      MAX_OBJECT_BYTES - Buffer.byteLength(JSON.stringify(atLimit.manifest));
    expect(() => checkObjectSizes([job(['x'.repeat(room)])])).not.toThrow();
    expect(() => checkObjectSizes([job(['x'.repeat(room + 1)])])).toThrow(
      InputError,
    );
  });

  it('refuses a 1.8 MB object naming it, its size, the limit and the field to shrink', () => {
    expect(() =>
      checkObjectSizes([job(['--a', 'x'.repeat(1_800_000)])]),
    ).toThrow(
      /^Job models\/x-download is 1\.72 MiB \(\d+ bytes as JSON\), more than a cluster stores in one object: etcd refuses writes over its --max-request-bytes \(default 1\.5 MiB\) and model-manager sends at most 1507328 bytes, leaving room for what the API server adds\. Its largest field is spec\.template\.spec\.containers\[0\]\.args\[1\] \(1\.72 MiB\): make it smaller/,
    );
  });
});
