import { fieldErrorString } from './fieldErrors';
import {
  isDns1123Label,
  isDns1123Subdomain,
  isQualifiedName,
  validateObjectMeta,
} from './names';

describe('name validation', () => {
  it.each([
    ['bge-m3', true],
    ['a.b-c', true],
    ['BGE_m3', false],
    ['-a', false],
    ['a'.repeat(254), false],
  ])('subdomain %s valid: %s', (name, valid) => {
    expect(isDns1123Subdomain(name).length === 0).toBe(valid);
  });

  it.each([
    ['demo', true],
    ['a.b', false],
    ['a'.repeat(64), false],
  ])('label %s valid: %s', (name, valid) => {
    expect(isDns1123Label(name).length === 0).toBe(valid);
  });

  it.each([
    ['app', true],
    ['app.kubernetes.io/managed-by', true],
    ['a/b/c', false],
    ['bad key', false],
  ])('qualified name %s valid: %s', (name, valid) => {
    expect(isQualifiedName(name).length === 0).toBe(valid);
  });

  it('formats the metadata.name error exactly like kube-apiserver', () => {
    const [err] = validateObjectMeta(
      { name: 'BGE_m3', namespace: 'demo' },
      { namespaced: true, nameRule: 'subdomain' },
    );
    expect(fieldErrorString(err)).toBe(
      `metadata.name: Invalid value: "BGE_m3": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    );
  });

  it('validates label keys and values', () => {
    const errs = validateObjectMeta(
      { name: 'a', labels: { 'bad key': 'x', ok: 'bad value' } },
      { namespaced: false, nameRule: 'subdomain' },
    );
    expect(errs.map(e => [e.field, e.value])).toEqual([
      ['metadata.labels', 'bad key'],
      ['metadata.labels', 'bad value'],
    ]);
  });
});
