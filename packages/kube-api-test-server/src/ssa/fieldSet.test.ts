import { FieldSet } from './fieldSet';
import { pathToString } from './pathElement';

describe('FieldSet', () => {
  const fields = {
    'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
    'f:spec': {
      'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:image': {} } },
      'f:replicas': {},
    },
  };

  it('round-trips FieldsV1', () => {
    expect(FieldSet.fromFieldsV1(fields).toFieldsV1()).toEqual(fields);
  });

  it('lists paths members first, in kube-apiserver order', () => {
    expect(FieldSet.fromFieldsV1(fields).paths().map(pathToString)).toEqual([
      '.metadata.labels',
      '.metadata.labels.app',
      '.spec.replicas',
      '.spec.containers[name="a"]',
      '.spec.containers[name="a"].image',
    ]);
  });

  it.each([
    ['union', (a: FieldSet, b: FieldSet) => a.union(b), ['.a', '.b', '.c']],
    ['intersection', (a: FieldSet, b: FieldSet) => a.intersection(b), ['.b']],
    ['difference', (a: FieldSet, b: FieldSet) => a.difference(b), ['.a']],
  ])('%s', (_name, op, expected) => {
    const a = FieldSet.of([['f:a'], ['f:b']]);
    const b = FieldSet.of([['f:b'], ['f:c']]);
    expect(op(a, b).paths().map(pathToString)).toEqual(expected);
  });

  it('recursiveDifference drops whole subtrees', () => {
    const s = FieldSet.of([
      ['f:status', 'f:url'],
      ['f:spec', 'f:x'],
    ]);
    expect(
      s
        .recursiveDifference(FieldSet.of([['f:status']]))
        .paths()
        .map(pathToString),
    ).toEqual(['.spec.x']);
    expect(s.select('f:status').paths().map(pathToString)).toEqual([
      '.status.url',
    ]);
  });
});
