import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { FIXTURE_CATALOG_DIR } from '../testUtils/catalogFixtures';
import { parseYamlSource } from './parseYamlSource';

describe('parseYamlSource', () => {
  // The fast parser must read every file exactly as the position-keeping YAML 1.2 parser does.
  const files = [
    'models.yaml',
    'runtimes/vllm/values.yaml',
    'runtimes/openvino/values.yaml',
    'runtimes/openvino/serving-runtime.yaml',
  ];
  it.each(files)('reads %s as the YAML 1.2 core schema does', file => {
    const text = fs.readFileSync(path.join(FIXTURE_CATALOG_DIR, file), 'utf8');
    expect(parseYamlSource(file, text).data).toEqual(parse(text));
  });

  const scalars = [
    '0.24.0',
    '"1"',
    'yes',
    'no',
    'on',
    'off',
    '~',
    'null',
    'Null',
    'NULL',
    'true',
    'True',
    'TRUE',
    'false',
    '0o17',
    '017',
    '0x1F',
    '1e3',
    '-.5',
    '+1',
    '.inf',
    '-.Inf',
    '.nan',
    '2024-01-01',
    '2001-12-14t21:59:43.10-05:00',
    '12:30',
    '1_000',
    "'quoted'",
    '16Gi',
    '500m',
    '=',
    '"multi word"',
    'a: b',
  ];
  it.each(scalars)('scalar %s means the same on both paths', scalar => {
    const text = `key: ${scalar}\n`;
    let expected: unknown;
    try {
      expected = parse(text);
    } catch {
      return; // not a valid plain value on the reference parser either
    }
    expect(parseYamlSource('t.yaml', text).data).toEqual(expected);
  });

  it('locates keys and values on the fast path, lazily', () => {
    const doc = parseYamlSource('t.yaml', 'a:\n  b: [1, 2]\n  c: x\n');
    expect(doc.locate(['a', 'c'])).toEqual({ line: 3, col: 3 });
    expect(doc.locate(['a', 'c'], 'value')).toEqual({ line: 3, col: 6 });
    expect(doc.locate(['a', 'b', 1], 'value')).toEqual({ line: 2, col: 10 });
  });

  it('files with anchors take the full parser and expand aliases', () => {
    expect(parseYamlSource('t.yaml', 'a: &x {b: 1}\nc: *x\n').data).toEqual({
      a: { b: 1 },
      c: { b: 1 },
    });
  });

  it('a fast-path refusal reports the exact position from the full parser', () => {
    expect(() => parseYamlSource('t.yaml', 'a: 1\na: 2\n')).toThrow(
      "t.yaml:2:1: YAML: Map keys must be unique; 'a' appears again here",
    );
  });

  // A key YAML reads as a number, boolean or null is renamed by the reading (`0.10:` is the key
  // "0.1"): a version added so could not be deployed by the name it was written with. Refused,
  // on both paths, with the fix.
  const renamed: Array<[string, string]> = [
    [
      '0.10',
      "the key 0.10 is read as the number 0.1, so it would be named '0.1'",
    ],
    ['1.0', "the key 1.0 is read as the number 1, so it would be named '1'"],
    [
      '0x1F',
      "the key 0x1F is read as the number 31, so it would be named '31'",
    ],
    [
      '1e3',
      "the key 1e3 is read as the number 1000, so it would be named '1000'",
    ],
    [
      'TRUE',
      "the key TRUE is read as the boolean true, so it would be named 'true'",
    ],
    [
      'False',
      "the key False is read as the boolean false, so it would be named 'false'",
    ],
    // YAML readers disagree on the name of a null key (js-yaml "null", yaml "").
    ['NULL', 'the key NULL is read as the null value, not as a name'],
    ['null', 'the key null is read as the null value, not as a name'],
    ['~', 'the key ~ is read as the null value, not as a name'],
  ];
  it.each(renamed)('a key written %s is refused: %s', (key, message) => {
    for (const text of [
      `versions:\n  "0.24.0": a\n  ${key}: b\n`,
      `env: { A: x, ${key}: y }\n`,
      // Anchors send it through the full parser.
      `base: &b 1\nversions:\n  ${key}: b\n`,
    ]) {
      expect(() => parseYamlSource('t.yaml', text)).toThrow(
        `: YAML: ${message}; quote it ("${key}") to keep it as written`,
      );
    }
    expect(() => parseYamlSource('t.yaml', `versions:\n  ${key}: b\n`)).toThrow(
      /^t\.yaml:2:3: YAML: the key /,
    );
  });

  it.each(['1', 'true', '"null"', '"0.10"', "'TRUE'", '0.24.0', '-1'])(
    'a key written %s reads as written, and is kept',
    key => {
      const data = parseYamlSource('t.yaml', `m:\n  ${key}: b\n`).data as {
        m: Record<string, string>;
      };
      expect(Object.keys(data.m)).toEqual([key.replace(/^["']|["']$/g, '')]);
    },
  );

  // kubectl's reader (go-yaml) and most YAML tools take YAML 1.1's merge keys; so does this one.
  it.each([
    ['an alias', 'd: &d {A: 1, B: 2}\nm:\n  <<: *d\n  B: 3\n', { A: 1, B: 3 }],
    [
      'a list of aliases (the first wins)',
      'x: &x {A: 1}\ny: &y {A: 2, B: 2}\nm:\n  <<: [*x, *y]\n',
      { A: 1, B: 2 },
    ],
    [
      'an inline mapping (no anchor)',
      'm:\n  <<: {A: 1}\n  C: 2\n',
      { A: 1, C: 2 },
    ],
  ])(
    "a merge key (<<) with %s merges, the mapping's own keys winning",
    (_what, text, m) => {
      expect(
        (parseYamlSource('t.yaml', text).data as { m: unknown }).m,
      ).toEqual(m);
    },
  );

  it('a merge key may appear once in a mapping', () => {
    expect(() =>
      parseYamlSource('t.yaml', 'm:\n  <<: {A: 1}\n  <<: {B: 1}\n'),
    ).toThrow(
      "t.yaml:3:3: YAML: Map keys must be unique; '<<' appears again here",
    );
  });
});
