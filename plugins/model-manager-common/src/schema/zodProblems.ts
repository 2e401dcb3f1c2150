import type { ZodError } from 'zod';
import { formatPath } from '../source/problems';
import type { CatalogProblem, SourceDocument } from '../source/types';

/**
 * Turns zod issues into located problems. Unknown keys point at the key itself and suggest the
 * closest known key, so a typo such as `server_verison` says what was meant.
 */
export function zodProblems(
  error: ZodError,
  source: SourceDocument,
  knownKeysAt: (path: ReadonlyArray<string | number>) => readonly string[],
  basePath: ReadonlyArray<string | number> = [],
): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  for (const issue of error.issues) {
    const path = [...basePath, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeysAt(path);
      for (const key of issue.keys) {
        const keyPath = [...path, key];
        const pos = source.locate(keyPath);
        const guess = closest(key, known);
        problems.push({
          file: source.file,
          line: pos?.line,
          col: pos?.col,
          path: formatPath(keyPath),
          message: `unknown key '${key}'${
            guess ? `; did you mean '${guess}'?` : ';'
          } allowed here: ${known.join(', ') || '(none)'}`,
        });
      }
      continue;
    }
    // A missing key, or a record key that fails its pattern (a string check on a path whose value
    // is not a string, e.g. a model name), points at the key.
    const atKey =
      (issue.code === 'invalid_type' && issue.received === 'undefined') ||
      (issue.code === 'invalid_string' &&
        typeof valueAt(source.data, path) !== 'string') ||
      (issue.code === 'custom' && issue.params?.at === 'key');
    const pos = source.locate(path, atKey ? 'key' : 'value');
    let message = issue.message;
    if (issue.code === 'invalid_type' && issue.received === 'undefined') {
      message = `is required (${
        issue.message === 'Required'
          ? `expected ${issue.expected}`
          : issue.message
      })`;
    } else if (
      issue.code === 'invalid_type' &&
      issue.message === `Expected ${issue.expected}, received ${issue.received}`
    ) {
      // zod's own words ("Expected object, received null"), in the file's terms.
      message = wrongTypeMessage(
        path[path.length - 1],
        issue.expected,
        issue.received,
      );
    }
    problems.push({
      file: source.file,
      line: pos?.line,
      col: pos?.col,
      path: formatPath(path),
      message,
    });
  }
  return problems;
}

/** What a YAML value of each JSON type is called here, and how one is written. */
const SHAPES: Record<string, { name: string; written: string }> = {
  object: { name: 'a map', written: 'key: value lines' },
  array: { name: 'a list', written: '- item lines' },
  string: { name: 'a string', written: 'a value' },
  number: { name: 'a number', written: 'a number' },
  boolean: { name: 'true or false', written: 'true or false' },
};

/**
 * A wrong type in words: a key with nothing under it (YAML reads it as null) is empty, with the
 * fix; otherwise what it must be and what YAML read.
 */
function wrongTypeMessage(
  key: string | number | undefined,
  expected: string,
  received: string,
): string {
  const shape = SHAPES[expected];
  if (!shape) return `Expected ${expected}, received ${received}`;
  if (received === 'null' && typeof key === 'string')
    return `is empty: YAML reads \`${key}:\` with nothing after it as null; write ${shape.written} under it`;
  const got = SHAPES[received]?.name ?? received;
  return `must be ${shape.name} (${shape.written}), and YAML read ${got} here`;
}

function valueAt(data: unknown, path: ReadonlyArray<string | number>): unknown {
  let node = data;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

/**
 * The known key closest to a misspelt one: the nearest by edit distance when it is near (within
 * 2, or a quarter of the word), else the one sharing the longest prefix of 4 or more characters
 * (`controler_name` is `controller_name`, not `controller`; `gpu_memory` is `gpu_memory_gb`).
 */
export function closest(
  word: string,
  candidates: readonly string[],
): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  if (bestDistance <= Math.max(2, Math.floor(word.length / 4))) return best;
  const commonPrefix = (a: string, b: string) => {
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return i;
  };
  let prefixed: string | undefined;
  let longest = Math.min(4, lower.length) - 1;
  for (const candidate of candidates) {
    const n = commonPrefix(lower, candidate.toLowerCase());
    if (n > longest) {
      longest = n;
      prefixed = candidate;
    }
  }
  return prefixed;
}

function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(
        prev[j] + 1,
        prev[j - 1] + 1,
        diag + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      diag = tmp;
    }
  }
  return prev[b.length];
}
