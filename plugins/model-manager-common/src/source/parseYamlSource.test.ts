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
});
