import { zodProblems } from '../schema/zodProblems';
import { formatPath } from '../source/problems';
import type { CatalogProblem, SourceDocument } from '../source/types';
import {
  engineProfileSchema,
  knownProfileKeys,
  toEngineProfile,
} from './engineProfileSchema';
import type { EngineProfile } from './types';

/**
 * Checks one runtime's parsed profile.yaml: its schema (every required key, no unknown key), that
 * every template it names exists under runtimes/, and that a converting engine passes
 * `${weight_format}` to its download. Problems carry the profile's file:line:col.
 */
export function loadProfile(
  doc: SourceDocument,
  templateExists: (ref: string) => boolean,
  knownTemplates: readonly string[],
): { profile: EngineProfile } | { problems: CatalogProblem[] } {
  const parsed = engineProfileSchema.safeParse(doc.data ?? {});
  if (!parsed.success)
    return { problems: zodProblems(parsed.error, doc, knownProfileKeys) };
  const p = parsed.data;
  const problems: CatalogProblem[] = [];
  const at = (
    path: Array<string | number>,
    message: string,
    where: 'key' | 'value' = 'key',
  ) => {
    const pos = doc.locate(path, where);
    problems.push({
      file: doc.file,
      line: pos?.line,
      col: pos?.col,
      path: formatPath(path),
      message,
    });
  };
  const checkRef = (ref: string, path: Array<string | number>) => {
    if (!templateExists(ref)) {
      at(
        path,
        `template ${ref} does not exist under runtimes/; fix the path or add the file (templates found: ${knownTemplates.join(
          ', ',
        )})`,
        'value',
      );
    }
  };
  p.objects.forEach((o, i) => {
    if (o.template) checkRef(o.template, ['objects', i, 'template']);
  });
  const last = p.objects.length - 1;
  if (!p.objects[last].template) {
    at(
      ['objects', last],
      'the last object is the model server object (its kind is the runtime kind, its status the model status); it must be a template: entry',
    );
  }
  for (const [routing, refs] of Object.entries(p.routing))
    refs.forEach((ref, i) => checkRef(ref, ['routing', routing, i]));
  if (
    p.weights &&
    !p.weights.download_args.some(a => a.includes('${weight_format}'))
  ) {
    at(
      ['weights', 'download_args'],
      'weights: says the engine converts weights, but no download_args item passes ${weight_format}, so weight_format would be silently ignored. Add an item such as --weight-format=${weight_format}, or remove weights:',
    );
  }
  if (problems.length > 0) return { problems };
  return { profile: toEngineProfile(doc.file, p) };
}
