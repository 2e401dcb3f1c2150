import type { CatalogProblem, SourceDocument } from './types';

/** `models.yaml:12:5: models.qwen.category: message` */
export function formatProblem(problem: CatalogProblem): string {
  let where = problem.file;
  if (problem.line !== undefined) {
    where += `:${problem.line}`;
    if (problem.col !== undefined) where += `:${problem.col}`;
  }
  const path = problem.path ? ` ${problem.path}:` : '';
  return `${where}:${path} ${problem.message}`;
}

/** Joins path segments the way users write them: `models.qwen.server.args[0]`. */
export function formatPath(path: ReadonlyArray<string | number>): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z0-9_-]+$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** A problem at `path` of a parsed file, with its file:line:col (of the key, or of its value). */
export function problemAt(
  doc: SourceDocument,
  path: ReadonlyArray<string | number>,
  message: string,
  at: 'key' | 'value' = 'key',
): CatalogProblem {
  const pos = doc.locate(path, at);
  return {
    file: doc.file,
    line: pos?.line,
    col: pos?.col,
    path: formatPath(path),
    message,
  };
}

/**
 * Thrown when an input file (models.yaml, a values.yaml, a template) is invalid. Carries every
 * problem found, each with file:line:col and path, once: a shared layer (a category's env, a
 * version's delta) is checked through every model that inherits it, and says the same thing at
 * the same place each time. The message lists them all.
 */
export class CatalogError extends Error {
  readonly problems: CatalogProblem[];

  constructor(problems: CatalogProblem[]) {
    const seen = new Set<string>();
    const once = problems.filter(p => {
      const text = formatProblem(p);
      if (seen.has(text)) return false;
      seen.add(text);
      return true;
    });
    const shown = once.slice(0, 20).map(formatProblem);
    if (once.length > 20) shown.push(`... and ${once.length - 20} more`);
    super(
      once.length === 1
        ? shown[0]
        : `${once.length} problems:\n${shown.join('\n')}`,
    );
    this.name = 'CatalogError';
    this.problems = once;
  }
}
