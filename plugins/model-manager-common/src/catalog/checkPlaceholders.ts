import type { EngineProfile } from '../profile/types';
import { placeholdersOf } from '../renderer/renderManifests';
import type { ParsedTemplate } from '../renderer/types';
import type { CatalogProblem } from '../source/types';

/** The templates a profile renders: its objects', then its routes'. */
function templatesOf(profile: EngineProfile): string[] {
  return [
    ...profile.objects.flatMap(o => (o.template ? [o.template] : [])),
    ...Object.values(profile.routing).flat(),
  ];
}

const list = (names: readonly string[]) =>
  names.map(n => `\${${n}}`).join(', ');

/**
 * Every placeholder of every template is one its engine profile provides: a built-in one
 * (`BUILTIN_PLACEHOLDERS`) or a plumbing key the profile declares. A template several profiles
 * use (the route templates) must fit each of them. A template no profile uses is never rendered:
 * only the form of its placeholders is checked (parseTemplate). Each problem names the template
 * file:line:col, the profile and the fix.
 */
export function checkPlaceholders(
  profiles: Readonly<Record<string, EngineProfile>>,
  templates: Readonly<Record<string, ParsedTemplate>>,
): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  for (const profile of Object.values(profiles)) {
    const known = placeholdersOf(profile);
    for (const ref of new Set(templatesOf(profile))) {
      const template = templates[ref];
      if (!template) continue;
      for (const p of template.placeholders) {
        if (known.includes(p.name)) continue;
        problems.push({
          file: template.file,
          line: p.line,
          col: p.col,
          path: '',
          message: `unknown placeholder \${${p.name}} for the engine of ${
            profile.file
          }, which renders this template: declare it as a plumbing key there (plumbing: { ${
            p.name
          }: { type: string } }, with a default or set in each runtime's values.yaml), or use one of ${list(
            known,
          )}`,
        });
      }
    }
  }
  return problems;
}
