import { BUILTIN_PLACEHOLDERS } from '../renderer/renderManifests';
import { zodProblems } from '../schema/zodProblems';
import { problemAt } from '../source/problems';
import type { CatalogProblem, SourceDocument } from '../source/types';
import { engineProfileSchema, toEngineProfile } from './engineProfileSchema';
import { knownProfileKeys } from './profileKeys';
import {
  PLUMBING_READ_BY_CODE,
  plumbingValueProblem,
  type PlumbingDeclaration,
} from './plumbing';
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
  ) => problems.push(problemAt(doc, path, message, where));
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
  checkPlumbing(p.plumbing, at);
  // Every routing value says where clients call its models, and every rule is for one.
  for (const routing of Object.keys(p.routing)) {
    if (!Object.prototype.hasOwnProperty.call(p.endpoints, routing))
      at(
        ['routing', routing],
        `routing ${routing} has no endpoint rule, so where clients call its models is not known: add endpoints.${routing} (the sources of the URL, in order), e.g. endpoints: { ${routing}: [{ from: status-url, path: /v1 }] }`,
      );
  }
  // routing_values, controller_* and gateway_config are for routing values the profile has.
  const knownRoutings = (
    section:
      | 'routing_values'
      | 'controller_gateway'
      | 'controller_kinds'
      | 'controller_tls'
      | 'gateway_config'
      | 'gateway_class',
  ) => {
    for (const routing of Object.keys(p[section]))
      if (!Object.prototype.hasOwnProperty.call(p.routing, routing))
        at(
          [section, routing],
          `${section}.${routing} is for a routing this profile does not have (routing: ${Object.keys(
            p.routing,
          ).join(', ')}); add routing.${routing} or remove it`,
        );
  };
  knownRoutings('routing_values');
  knownRoutings('controller_gateway');
  knownRoutings('controller_kinds');
  knownRoutings('controller_tls');
  knownRoutings('gateway_config');
  knownRoutings('gateway_class');
  // routing_values' names are no other placeholder's.
  for (const [routing, values] of Object.entries(p.routing_values)) {
    for (const name of Object.keys(values)) {
      const taken = (BUILTIN_PLACEHOLDERS as readonly string[]).includes(name)
        ? 'a built-in placeholder'
        : Object.prototype.hasOwnProperty.call(p.plumbing, name)
        ? 'a plumbing key of this profile'
        : undefined;
      if (taken)
        at(
          ['routing_values', routing, name],
          `routing_values.${routing}.${name} names ${taken}, which a template placeholder \${${name}} already means; give it another name`,
        );
    }
  }
  for (const routing of Object.keys(p.endpoints)) {
    if (!Object.prototype.hasOwnProperty.call(p.routing, routing))
      at(
        ['endpoints', routing],
        `endpoints.${routing} is for a routing this profile does not have (routing: ${Object.keys(
          p.routing,
        ).join(
          ', ',
        )}); add routing.${routing} (its route templates, or []) or remove the rule`,
      );
  }
  if (problems.length > 0) return { problems };
  return { profile: toEngineProfile(doc.file, p) };
}

/**
 * A profile's `plumbing:` beyond its schema: each default fits its key's type, and the keys the
 * code reads by name (PLUMBING_READ_BY_CODE) hold text.
 */
function checkPlumbing(
  plumbing: Record<string, PlumbingDeclaration>,
  at: (
    path: Array<string | number>,
    message: string,
    where?: 'key' | 'value',
  ) => void,
) {
  for (const [key, d] of Object.entries(plumbing)) {
    if (
      d.type === 'integer' &&
      (PLUMBING_READ_BY_CODE as readonly string[]).includes(key)
    ) {
      at(
        ['plumbing', key, 'type'],
        `plumbing key ${key} is read by model-manager itself as text; declare it with a text type (string, enum, kind, url_path, ...), not integer`,
        'value',
      );
    }
    if (d.default === undefined) continue;
    const problem = plumbingValueProblem(key, d, d.default);
    if (problem)
      at(
        ['plumbing', key, 'default'],
        `the default does not fit the key's own type: ${problem}`,
        'value',
      );
  }
}
