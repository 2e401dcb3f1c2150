import { deepClone } from './json';

describe('deepClone', () => {
  // The contract is JSON.parse(JSON.stringify(value)); each row is a case where that round trip
  // changes something, or where a copy could share state with the original.
  const rows: Array<{ rule: string; value: any }> = [
    {
      rule: 'nested objects and arrays',
      value: { a: [1, { b: 'x' }], c: { d: null } },
    },
    { rule: 'undefined properties are dropped', value: { a: undefined, b: 1 } },
    { rule: 'undefined array items become null', value: [1, undefined, 3] },
    {
      rule: 'non-finite numbers become null',
      value: { a: NaN, b: [Infinity, -Infinity] },
    },
    {
      rule: 'functions are dropped from objects, null in arrays',
      value: { f: () => 1, a: [() => 2] },
    },
    {
      rule: 'a Date is written by its toJSON',
      value: { at: new Date(Date.UTC(2026, 11, 1)) },
    },
    { rule: 'empty containers stay', value: { a: {}, b: [] } },
    { rule: 'key order is kept', value: { z: 1, a: 2, m: { y: 1, b: 2 } } },
  ];

  it.each(rows)('$rule', ({ value }) => {
    const copied = deepClone(value);
    const expected = JSON.parse(JSON.stringify(value));
    expect(copied).toEqual(expected);
    expect(JSON.stringify(copied)).toBe(JSON.stringify(expected));
  });

  it('shares nothing with the original', () => {
    const value = { a: { b: [{ c: 1 }] } };
    const copied = deepClone(value);
    copied.a.b[0].c = 2;
    expect(value.a.b[0].c).toBe(1);
  });

  it('copies primitives and undefined as they are', () => {
    expect(deepClone(undefined)).toBeUndefined();
    expect(deepClone('x')).toBe('x');
    expect(deepClone(null)).toBeNull();
  });
});
