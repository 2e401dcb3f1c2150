import { Document, visit } from 'yaml';

/**
 * Plain scalars that some YAML reader takes for something other than a string. Kubernetes
 * clients do not all read YAML 1.2: PyYAML and go-yaml v2 (behind kubectl, Helm, kustomize) read
 * YAML 1.1, where `yes`, `on`, `y`, `1_000`, `0b11`, `1:20` and `2001-12-14` are booleans,
 * numbers and timestamps; YAML 1.2 adds `0o17`. Over-quoting is harmless, so the rules are broad:
 *
 * - YAML 1.1 bool (https://yaml.org/type/bool.html, and go-yaml v2 `resolve.go`), null
 *   (https://yaml.org/type/null.html), merge `<<` and value `=` keys;
 * - anything that starts like a number (`[-+]?.?digit`) and uses only the characters of
 *   numbers and timestamps: ints and floats of any base, with `_` or `:` (sexagesimal,
 *   https://yaml.org/type/int.html, https://yaml.org/type/float.html, whose float pattern even
 *   allows `0.24.0`) and timestamps (https://yaml.org/type/timestamp.html). `16Gi` stays plain;
 * - `.inf`, `-.Inf`, `.nan` and their spellings.
 */
const NOT_A_STRING_IN_SOME_YAML = [
  /^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/,
  /^(null|Null|NULL|~|)$/,
  /^(<<|=)$/,
  /^[-+]?\.?[0-9][0-9a-fA-FxXoObB_:.+\-tTzZ ]*$/,
  /^[-+]?\.(inf|Inf|INF)$/,
  /^\.(nan|NaN|NAN)$/,
];

/**
 * Characters a YAML reader may treat as a line break (U+0085 NEL, U+2028, U+2029: YAML 1.1
 * §5.4) or refuse (DEL, C0/C1 controls, and TAB in a plain scalar: PyYAML's pure-Python scanner
 * stops with "found character '\t' that cannot start any token" on `value: a<TAB>b`), cutting a
 * value short if written raw. Escaped in a double-quoted scalar with the escapes both YAML 1.1
 * and 1.2 define (the `yaml` package writes TAB there as `\t`).
 */
const UNSAFE_CHARACTERS =
  // eslint-disable-next-line no-control-regex -- these control characters are what it finds
  /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff]/;
const ESCAPES: Record<string, string> = {
  '\u0085': '\\N',
  '\u2028': '\\L',
  '\u2029': '\\P',
};
// eslint-disable-next-line no-control-regex
const RAW_UNSAFE = /[\u007f-\u009f\u2028\u2029\ufeff]/g;

/** True when a string must be quoted to stay a string for every YAML 1.1 and 1.2 reader. */
export function needsQuotes(value: string): boolean {
  return (
    NOT_A_STRING_IN_SOME_YAML.some(re => re.test(value)) ||
    UNSAFE_CHARACTERS.test(value)
  );
}

/**
 * Serialises Kubernetes objects as YAML that every client reads the same way: YAML 1.1 readers
 * (PyYAML, go-yaml v2 behind kubectl) and YAML 1.2 readers (the `yaml` package, go-yaml v3).
 * Strings that any of them could take for a boolean, number, null or timestamp are
 * double-quoted; line-breaking and control characters are escaped. Keys too.
 */
export function toKubernetesYaml(value: unknown): string {
  const doc = new Document(value);
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && needsQuotes(node.value))
        node.type = 'QUOTE_DOUBLE';
    },
  });
  // The `yaml` package escapes C0 controls in double-quoted scalars but writes DEL, C1 controls,
  // U+2028 and U+2029 raw. They only ever occur inside double-quoted scalars (forced above), so
  // escaping them in the output text is safe.
  return doc.toString({ lineWidth: 0 }).replace(RAW_UNSAFE, escape);
}

function escape(ch: string): string {
  const code = ch.charCodeAt(0).toString(16).toUpperCase();
  return (
    ESCAPES[ch] ??
    (code.length <= 2
      ? `\\x${code.padStart(2, '0')}`
      : `\\u${code.padStart(4, '0')}`)
  );
}

/** Several objects as one multi-document YAML stream. */
export function toKubernetesYamlStream(values: unknown[]): string {
  return values.map(toKubernetesYaml).join('---\n');
}
