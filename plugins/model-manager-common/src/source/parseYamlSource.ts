import { CORE_SCHEMA, load as loadFast } from 'js-yaml';
import {
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  visit,
  type Document,
  type Node as YamlNode,
} from 'yaml';
import { CatalogError } from './problems';
import type { CatalogProblem, SourceDocument, SourcePosition } from './types';

/** Files bigger than this are refused before parsing (a models.yaml is a few hundred kB at most). */
export const MAX_SOURCE_BYTES = 16 * 1024 * 1024;
/** Aliases beyond this count are refused: protects against "billion laughs" alias bombs. */
const MAX_ALIAS_COUNT = 100;
/**
 * Anchors, aliases, tags, document markers, a signed fraction like `-.5` (which the fast parser
 * reads as a string where YAML 1.2 reads a number), or a merge key `<<` (which only the full
 * parser merges): such files take the full parser.
 */
const NEEDS_FULL_PARSER = /(^|[\s[{,:])[&*!]|^(---|\.\.\.)|[+-]\.\d|<</m;
/**
 * A key as YAML writes a number, boolean or null once read (`0.10:` is the number 0.1, a key
 * "0.1"; `TRUE:` the key "true"): the full parser then tells whether it was written so.
 */
const READ_AS_SCALAR =
  /^(-?\d+(\.\d+)?(e[+-]\d+)?|-?Infinity|NaN|true|false|null)$/;

/**
 * Parses YAML text into plain data plus a locator that maps any key path back to line:col.
 * Syntax errors, duplicate keys, keys that YAML would rename (below), alias bombs and
 * multi-document files are reported as {@link CatalogError} with file:line:col.
 *
 * YAML 1.2's core schema, with YAML 1.1's merge keys (`<<: *defaults`), which kubectl's reader
 * (go-yaml) and most YAML tools take. A mapping key that YAML reads as a number, boolean or null
 * is refused when reading it changes it (`0.10:`, a version, would be the key "0.1"; `TRUE:`, an
 * env name, "true"): the fix is to quote it.
 *
 * Plain files (no anchors, aliases, tags or document markers) are read with a fast parser; the
 * position-keeping parser then runs only when a location is first asked for (an error, or a
 * value's origin being shown). Anything the fast parser refuses goes through the full parser,
 * whose errors carry exact positions.
 */
export function parseYamlSource(file: string, text: string): SourceDocument {
  if (text.length > MAX_SOURCE_BYTES) {
    throw new CatalogError([
      {
        file,
        path: '',
        message: `file is ${text.length} bytes, more than the ${MAX_SOURCE_BYTES} allowed; split it or remove generated content`,
      },
    ]);
  }
  const nul = text.indexOf('\u0000');
  if (nul !== -1) {
    const before = text.slice(0, nul);
    throw new CatalogError([
      {
        file,
        line: before.split('\n').length,
        col: nul - before.lastIndexOf('\n'),
        path: '',
        message:
          'the file contains a NUL character; save it as plain UTF-8 text',
      },
    ]);
  }
  if (!NEEDS_FULL_PARSER.test(text)) {
    let data: unknown;
    let ok = true;
    try {
      data = loadFast(text, { schema: CORE_SCHEMA, json: false });
    } catch {
      ok = false;
    }
    if (ok && !hasKeyReadAsScalar(data)) {
      let positions: Positions | undefined;
      return {
        file,
        data: data ?? null,
        locate: (path, at) =>
          (positions ??= fullParse(file, text).positions).locate(path, at),
      };
    }
  }
  const { data, positions } = fullParse(file, text);
  return { file, data, locate: positions.locate };
}

interface Positions {
  locate: SourceDocument['locate'];
}

/** The position-keeping parse: exact errors, duplicate keys, alias limits, and the locator. */
function fullParse(
  file: string,
  text: string,
): { data: unknown; positions: Positions } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter,
    // The library's own duplicate check is quadratic in the size of a mapping; ours below is not.
    uniqueKeys: false,
    prettyErrors: false,
    strict: true,
    merge: true,
  });
  const problems: CatalogProblem[] = [];
  for (const err of [...doc.errors, ...doc.warnings]) {
    const pos = lineCounter.linePos(err.pos[0]);
    problems.push({
      file,
      line: pos.line,
      col: pos.col,
      path: '',
      message: `YAML: ${describeYamlError(err.code, err.message)}`,
    });
  }
  if (problems.length === 0)
    problems.push(...keyProblems(file, doc, lineCounter));
  if (problems.length > 0) throw new CatalogError(problems);

  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    throw new CatalogError([
      {
        file,
        line: 1,
        col: 1,
        path: '',
        message: `YAML: ${
          (e as Error).message
        }; expand the aliases or reduce their nesting`,
      },
    ]);
  }
  return { data, positions: { locate: locator(doc, lineCounter) } };
}

/** Whether a mapping of `data`, at any depth, has a key a number, boolean or null could have become. */
function hasKeyReadAsScalar(data: unknown): boolean {
  if (Array.isArray(data)) return data.some(hasKeyReadAsScalar);
  if (data === null || typeof data !== 'object') return false;
  for (const [key, value] of Object.entries(data)) {
    if (READ_AS_SCALAR.test(key) || hasKeyReadAsScalar(value)) return true;
  }
  return false;
}

/** Repeated keys, and keys YAML reads as another text than the one written. */
function keyProblems(
  file: string,
  doc: Document,
  lineCounter: LineCounter,
): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  const at = (node: YamlNode, message: string) => {
    const pos = lineCounter.linePos(node.range?.[0] ?? 0);
    problems.push({ file, line: pos.line, col: pos.col, path: '', message });
  };
  visit(doc, {
    Map(_key, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const { value, source } = pair.key;
        // A merge key (`<<`) reads as a symbol: it names no key of its own.
        const merge = typeof value === 'symbol';
        const key = merge ? String(source) : String(value);
        if (value === null) {
          // YAML readers disagree on the name of a null key (js-yaml "null", yaml "").
          at(
            pair.key,
            `YAML: the key ${source} is read as the null value, not as a name; quote it ("${source}") to keep it as written`,
          );
        } else if (
          !merge &&
          typeof value !== 'string' &&
          source !== undefined &&
          key !== source
        ) {
          at(
            pair.key,
            `YAML: the key ${source} is read as the ${typeof value} ${key}, so it would be named '${key}'; quote it ("${source}") to keep it as written`,
          );
        }
        if (seen.has(key)) {
          at(
            pair.key,
            `YAML: Map keys must be unique; '${key}' appears again here. Each key may appear once in a mapping: remove or rename the repeated one`,
          );
        }
        seen.add(key);
      }
    },
  });
  return problems;
}

function locator(
  doc: Document,
  lineCounter: LineCounter,
): SourceDocument['locate'] {
  // Per-mapping key index, built on first use: a lookup in a 10,000-model map is O(1), not O(n).
  const keyIndex = new WeakMap<
    object,
    Map<string, { key: unknown; value: unknown }>
  >();
  const pairsOf = (map: { items: Array<{ key: unknown; value: unknown }> }) => {
    let index = keyIndex.get(map);
    if (!index) {
      index = new Map();
      for (const pair of map.items) {
        if (isScalar(pair.key)) {
          const k = String(pair.key.value);
          if (!index.has(k)) index.set(k, pair);
        }
      }
      keyIndex.set(map, index);
    }
    return index;
  };
  return (path, at = 'key'): SourcePosition | undefined => {
    let node: unknown = doc.contents;
    let offset: number | undefined = rangeStart(node);
    for (const seg of path) {
      if (isMap(node)) {
        const pair = pairsOf(node).get(String(seg));
        if (!pair) break;
        offset = rangeStart(pair.key) ?? offset;
        node = pair.value;
      } else if (isSeq(node) && typeof seg === 'number') {
        const item = node.items[seg];
        if (item === undefined) break;
        node = item;
        offset = rangeStart(item) ?? offset;
      } else {
        break;
      }
    }
    if (at === 'value' && node !== doc.contents)
      offset = rangeStart(node) ?? offset;
    // An empty document has no nodes: point at its start.
    return lineCounter.linePos(offset ?? 0);
  };
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as YamlNode | undefined)?.range;
  return range ? range[0] : undefined;
}

function describeYamlError(code: string, message: string): string {
  const first = message.split('\n')[0];
  switch (code) {
    case 'DUPLICATE_KEY':
      return `${first}; each key may appear once in a mapping, remove or rename the repeated one`;
    case 'MULTIPLE_DOCS':
      return `${first}; this file holds exactly one YAML document, remove the extra '---'`;
    default:
      return first;
  }
}
