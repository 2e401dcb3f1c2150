import { isMap, isScalar, LineCounter, parseDocument, visit } from 'yaml';
import { CatalogError } from '../source/problems';
import type { CatalogProblem } from '../source/types';
import type { ParsedTemplate } from './types';

/** `${name}` or `${a.b}`. */
export const PLACEHOLDER = /\$\{([^}]*)\}/g;
const NAME = /^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*$/;

/**
 * Parses a template and checks every placeholder against the names the renderer provides (when
 * `knownNames` is given; without it, only their form: the catalog checks each template against
 * the placeholders of the engine profiles that use it). An unknown or malformed placeholder is an
 * error naming the template file:line:col.
 */
export function parseTemplate(
  file: string,
  text: string,
  knownNames?: readonly string[],
): ParsedTemplate {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true });
  const problems: CatalogProblem[] = [];
  for (const err of doc.errors) {
    const pos = lineCounter.linePos(err.pos[0]);
    problems.push({
      file,
      ...pos,
      path: '',
      message: `YAML: ${err.message.split('\n')[0]}`,
    });
  }
  const placeholders: ParsedTemplate['placeholders'] = [];
  if (problems.length === 0) {
    visit(doc, {
      Pair(_key, pair) {
        // `<<: ${map}` merges a map placeholder's keys (fillTemplate); nothing else may follow <<.
        if (!isScalar(pair.key) || pair.key.value !== '<<') return;
        const value = pair.value;
        if (
          isScalar(value) &&
          typeof value.value === 'string' &&
          /^\$\{[^}]*\}$/.test(value.value)
        )
          return;
        const at = (value as { range?: [number, number] } | null)?.range ??
          pair.key.range ?? [0];
        problems.push({
          file,
          ...lineCounter.linePos(at[0]),
          path: '',
          message:
            '<<: takes one placeholder of a map, whose keys the mapping gets under its own, e.g. <<: ${annotations}',
        });
      },
      Scalar(_key, node) {
        if (typeof node.value !== 'string' || !node.range) return;
        for (const match of node.value.matchAll(PLACEHOLDER)) {
          const pos = lineCounter.linePos(node.range[0]);
          const name = match[1];
          if (!NAME.test(name)) {
            problems.push({
              file,
              ...pos,
              path: '',
              message: `malformed placeholder \${${name}}: a placeholder is a name of lowercase letters, digits and _ (dotted for model.*), e.g. \${model.name}`,
            });
          } else if (knownNames && !knownNames.includes(name)) {
            problems.push({
              file,
              ...pos,
              path: '',
              message: `unknown placeholder \${${name}}; known placeholders: ${knownNames
                .map(n => `\${${n}}`)
                .join(', ')}`,
            });
          } else {
            placeholders.push({ name, ...pos });
          }
        }
      },
    });
    if (!isMap(doc.contents)) {
      problems.push({
        file,
        line: 1,
        col: 1,
        path: '',
        message: 'a template must be one YAML mapping (a Kubernetes object)',
      });
    }
  }
  if (problems.length > 0) throw new CatalogError(problems);
  return { file, tree: doc.toJS(), placeholders };
}
