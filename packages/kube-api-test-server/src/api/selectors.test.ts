import { StatusError } from './errors';
import { parseFieldSelector, parseLabelSelector } from './selectors';

describe('label selectors', () => {
  const labels = {
    app: 'web',
    tier: 'front',
    'app.kubernetes.io/managed-by': 'model-manager',
  };
  it.each([
    ['', true],
    ['app=web', true],
    ['app==web', true],
    ['app=db', false],
    ['app!=db', true],
    ['missing!=x', true],
    ['app', true],
    ['!app', false],
    ['!missing', true],
    ['app in (web,db)', true],
    ['app in (db)', false],
    ['app notin (db)', true],
    ['missing notin (db)', true],
    ['app=web,tier=front', true],
    ['app=web, tier=back', false],
    ['app.kubernetes.io/managed-by=model-manager', true],
  ])('%j matches: %s', (selector, expected) => {
    expect(parseLabelSelector(selector)(labels)).toBe(expected);
  });

  it.each([['app in web'], ['=x'], ['app=web,,']])(
    'rejects %j with 400',
    selector => {
      expect(() => parseLabelSelector(selector)).toThrow(StatusError);
    },
  );
});

describe('field selectors', () => {
  const obj = { metadata: { name: 'a', namespace: 'demo' } };
  it.each([
    ['metadata.name=a', true],
    ['metadata.name==b', false],
    ['metadata.namespace!=demo', false],
    ['metadata.name=a,metadata.namespace=demo', true],
  ])('%j matches: %s', (selector, expected) => {
    expect(parseFieldSelector(selector)(obj)).toBe(expected);
  });

  it('rejects unknown fields like kube-apiserver', () => {
    expect(() => parseFieldSelector('spec.x=1')).toThrow(
      '"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
  });
});
