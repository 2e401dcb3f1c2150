import { parseYaml, parseYaml11 as yaml11 } from './codec';

describe('parseYaml', () => {
  // Each row reads the same through the JSON fast path and the YAML 1.1 reader.
  const same: Array<{ rule: string; text: string }> = [
    {
      rule: 'an apply patch as client-node sends it',
      text: JSON.stringify({
        apiVersion: 'serving.kserve.io/v1alpha1',
        kind: 'LLMInferenceService',
        metadata: {
          name: 'm',
          labels: { 'app.kubernetes.io/managed-by': 'model-manager' },
        },
        spec: {
          replicas: 1,
          template: { containers: [{ args: ['--port', '8000'], env: [] }] },
        },
      }),
    },
    {
      rule: 'indented JSON with spaces before colons',
      text: '{\n  "a" : 1,\n  "b":\t[true, false, null]\n}',
    },
    {
      rule: 'strings with escapes, colons and quotes',
      text: '{"a":"x: \\"y\\"\\n\\u00e9","b":"{\\"c\\":1}"}',
    },
    {
      rule: 'numbers: integers, decimals, negatives',
      text: '{"a":0,"b":-1.5,"c":123456789012}',
    },
    { rule: 'an array at the top', text: '[{"a":1},{"a":2}]' },
    {
      rule: 'the same key in different objects',
      text: '{"a":{"name":1},"b":{"name":2}}',
    },
    { rule: 'YAML that is not JSON', text: 'a: yes\nb: 0777\n' },
    {
      rule: 'a number with an exponent (a string in YAML 1.1)',
      text: '{"a":1e3}',
    },
  ];

  it.each(same)('$rule', ({ text }) => {
    expect(parseYaml(text)).toEqual(yaml11(text));
  });

  it('refuses a repeated key as the YAML reader does', () => {
    const text = '{"a":1,"a":2}';
    expect(() => yaml11(text)).toThrow(/unique/);
    expect(() => parseYaml(text)).toThrow(/unique/);
  });

  it('reads `\\/` as the YAML 1.1 reader does', () => {
    const text = '{"a":"x\\/y"}';
    let expected: unknown;
    try {
      expected = yaml11(text);
    } catch (e) {
      expected = e;
    }
    if (expected instanceof Error)
      expect(() => parseYaml(text)).toThrow(expected.message);
    else expect(parseYaml(text)).toEqual(expected);
  });
});
