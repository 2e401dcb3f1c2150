import { labelValueProblem, namespaceProblem } from './kubernetesNames';

// kube-apiserver's rules (apimachinery pkg/util/validation/validation.go): IsDNS1123Label for
// namespaces, IsValidLabelValue for label values. Rows from the reproducers.
const namespaces: Array<{ rule: string; value: string; ok: boolean }> = [
  { rule: 'lowercase letters and digits', value: 'models', ok: true },
  { rule: 'inner - is allowed', value: 'team-a', ok: true },
  { rule: 'a digit first is allowed', value: '0team', ok: true },
  { rule: '63 characters is the most', value: 'a'.repeat(63), ok: true },
  { rule: 'uppercase is refused', value: 'Models', ok: false },
  { rule: 'a space is refused', value: 'a b', ok: false },
  { rule: '_ is refused', value: 'team_a', ok: false },
  { rule: 'a trailing - is refused', value: 'ns-', ok: false },
  { rule: 'a leading - is refused', value: '-ns', ok: false },
  {
    rule: '. is refused (a subdomain, not a label)',
    value: 'ns.sub',
    ok: false,
  },
  { rule: '64 characters is refused', value: 'a'.repeat(64), ok: false },
  { rule: 'empty is refused', value: '', ok: false },
];

const labelValues: Array<{ rule: string; value: string; ok: boolean }> = [
  { rule: 'a version', value: '0.24.0', ok: true },
  { rule: '- inside', value: '0.24.0-rc1', ok: true },
  { rule: '_ inside', value: 'a_x', ok: true },
  { rule: 'uppercase is allowed', value: 'Cpu', ok: true },
  { rule: 'empty is allowed', value: '', ok: true },
  { rule: '63 characters is the most', value: 'v'.repeat(63), ok: true },
  { rule: '+ is refused', value: '0.11.0+cpu', ok: false },
  { rule: 'a space is refused', value: 'my cat', ok: false },
  { rule: 'a leading - is refused', value: '-rc1', ok: false },
  { rule: 'a leading _ is refused', value: '_x', ok: false },
  { rule: 'a trailing . is refused', value: 'x.', ok: false },
  { rule: '64 characters is refused', value: 'v'.repeat(64), ok: false },
];

describe('namespaceProblem (IsDNS1123Label)', () => {
  it.each(namespaces)('$rule', ({ value, ok }) => {
    expect(namespaceProblem(value) === undefined).toBe(ok);
  });
  it('says what to write', () => {
    expect(namespaceProblem('Models')).toBe(
      "namespace 'Models' is not a DNS-1123 label: lowercase letters, digits and -, starting and ending with a letter or digit (e.g. models, team-a)",
    );
  });
});

describe('labelValueProblem (IsValidLabelValue)', () => {
  it.each(labelValues)('$rule', ({ value, ok }) => {
    expect(labelValueProblem(value) === undefined).toBe(ok);
  });
});
