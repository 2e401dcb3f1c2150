import { load as loadJsYaml } from 'js-yaml';
import { parse, parseAllDocuments } from 'yaml';
import { toKubernetesYaml, toKubernetesYamlStream } from './toKubernetesYaml';

/** Every reader a Kubernetes user may meet, and how each reads one YAML document. */
const READERS: Array<[string, (text: string) => unknown]> = [
  // PyYAML and go-yaml v2 (kubectl, Helm, kustomize) read YAML 1.1.
  ['YAML 1.1 (yaml, version 1.1)', text => parse(text, { version: '1.1' })],
  ['YAML 1.2 core (yaml)', text => parse(text)],
  [
    'js-yaml (default schema: 1.2 plus timestamps and merge keys)',
    text => loadJsYaml(text),
  ],
];

interface Row {
  rule: string;
  values: string[];
}

const rows: Row[] = [
  {
    // https://yaml.org/type/bool.html; go-yaml v2 resolve.go adds y/Y/n/N.
    rule: 'YAML 1.1 booleans stay strings: yes, no, on, off, y, n in every case',
    values: ['yes', 'No', 'ON', 'off', 'y', 'Y', 'n', 'N', 'True', 'FALSE'],
  },
  {
    // https://yaml.org/type/null.html
    rule: 'nulls stay strings: null, ~ and the empty string',
    values: ['null', 'Null', '~', ''],
  },
  {
    // https://yaml.org/type/int.html, https://yaml.org/type/float.html (YAML 1.1); 0o17 is 1.2.
    rule: 'YAML 1.1 and 1.2 numbers stay strings: 1_000, 0b11, 0x1F, 0o17, 017, 1:20, 1e3, .5, +1, -.inf, .NaN',
    values: [
      '1_000',
      '0b11',
      '0x1F',
      '0o17',
      '017',
      '1:20',
      '190:20:30.15',
      '1e3',
      '.5',
      '+1',
      '-1',
      '8',
      '1.0',
      '-.inf',
      '.NaN',
      '.Inf',
    ],
  },
  {
    // https://yaml.org/type/timestamp.html
    rule: 'timestamps stay strings: 2001-12-14 and 2001-12-14t21:59:43.10-05:00',
    values: ['2001-12-14', '2001-12-14t21:59:43.10-05:00'],
  },
  {
    // https://yaml.org/type/merge.html, https://yaml.org/type/value.html
    rule: 'merge and value keys stay strings: << and =',
    values: ['<<', '='],
  },
  {
    // YAML 1.1 §5.4 line breaks; YAML 1.2 §5.2 excludes DEL and C1 controls from printable text.
    rule: 'U+2028, U+2029, U+0085, DEL and control characters are escaped, not written raw',
    values: [
      'a\u2028b',
      'a\u2029b',
      'a\u0085b',
      'a\u007fb',
      'a\u0009b',
      'a \tb',
      'x\t',
      'a\u001bb',
      'a\u009fb',
      '\ufeffbom',
      'back\\x0085slash',
    ],
  },
  {
    rule: 'ordinary strings are left alone and still read back unchanged',
    values: [
      '--max-model-len=8192',
      'Qwen/Qwen2.5-7B-Instruct',
      'auto',
      'é',
      'a: b',
      '- item',
      '#x',
      'docker.io/vllm/vllm-openai-cpu:v0.24.0',
    ],
  },
];

describe('toKubernetesYaml: every YAML 1.1 and 1.2 reader reads back the same strings', () => {
  it.each(rows)('$rule', ({ values }) => {
    for (const value of values) {
      const object = {
        metadata: { name: value, labels: { [`k-${value}`]: value } },
        args: [value],
      };
      const text = toKubernetesYaml(object);
      for (const [reader, read] of READERS) {
        expect({ reader, value, read: read(text) }).toEqual({
          reader,
          value,
          read: object,
        });
      }
      // No raw line-breaking character survives in the text, nor a raw TAB (PyYAML's scanner
      // refuses one in a plain scalar: "found character '\t' that cannot start any token").
      expect(text).not.toMatch(/[\u0085\u2028\u2029\u007f\t]/);
    }
  });

  it('ordinary strings are not quoted (the output stays readable)', () => {
    expect(toKubernetesYaml({ a: 'auto', b: '--max-model-len=8192' })).toBe(
      'a: auto\nb: --max-model-len=8192\n',
    );
    expect(toKubernetesYaml({ a: 'yes', b: '8' })).toBe('a: "yes"\nb: "8"\n');
  });

  it('a stream separates objects with ---', () => {
    const docs = parseAllDocuments(
      toKubernetesYamlStream([{ a: 'on' }, { b: 'off' }]),
      { version: '1.1' },
    );
    expect(docs.map(d => d.toJS())).toEqual([{ a: 'on' }, { b: 'off' }]);
  });
});
