import type { Catalog } from '../catalog/types';
import type { EngineProfile } from '../profile/types';
import type { ParsedTemplate, RenderedObject } from '../renderer/types';
import { problemAt } from '../source/problems';
import type { CatalogProblem, SourceDocument } from '../source/types';
import { PROGRESS_READERS, type ProgressReader } from './progressReaders';

/** The object of a deploy that reports the model's preparation, and how to read it. */
export interface ProgressObject {
  object: RenderedObject;
  reader: ProgressReader;
}

/**
 * Which of a deploy's objects reports the model's preparation (the weights download), as the
 * runtime's engine profile declares it (`progress:` on one of its `objects`), and how to read it.
 * The object is the one rendered from that template (by its file); in a record written from
 * another checkout of the runtimes folder, the one object of the reader's kind. Undefined when the
 * profile declares none (vLLM: KServe's storage-initializer downloads inside the server pod) or
 * the deploy has no such object.
 */
export function progressObjectOf(
  catalog: Catalog,
  runtime: string,
  manifests: readonly RenderedObject[],
): ProgressObject | undefined {
  const profile = Object.prototype.hasOwnProperty.call(
    catalog.runtimes,
    runtime,
  )
    ? catalog.runtimes[runtime].profile
    : undefined;
  const declared = profile?.objects.find(o => o.progress && o.template);
  if (!declared?.progress || !declared.template) return undefined;
  const reader = PROGRESS_READERS[declared.progress];
  const file = catalog.templates[declared.template]?.file;
  const ofKind = manifests.filter(
    o => o.apiVersion === reader.apiVersion && o.kind === reader.kind,
  );
  const object =
    ofKind.find(o => o.source === file) ??
    (ofKind.length === 1 ? ofKind[0] : undefined);
  return object ? { object, reader } : undefined;
}

/**
 * Load-time check of a profile's `progress:` object: its template renders the kind its reader
 * reads (a `job` reader reads a batch/v1 Job). Problems carry the profile's file:line:col.
 */
export function progressProblems(
  doc: SourceDocument,
  profile: EngineProfile,
  templates: Readonly<Record<string, ParsedTemplate>>,
): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  profile.objects.forEach((o, i) => {
    if (!o.progress || !o.template || !templates[o.template]) return;
    const reader = PROGRESS_READERS[o.progress];
    const tree = templates[o.template].tree as
      | { apiVersion?: unknown; kind?: unknown }
      | undefined;
    if (tree?.apiVersion === reader.apiVersion && tree?.kind === reader.kind)
      return;
    problems.push(
      problemAt(
        doc,
        ['objects', i, 'progress'],
        `progress: ${o.progress} reads a ${reader.apiVersion} ${
          reader.kind
        }, but ${o.template} renders ${String(tree?.apiVersion)} ${String(
          tree?.kind,
        )}; put progress: on the object that reports the preparation, or remove it`,
        'value',
      ),
    );
  });
  return problems;
}

/**
 * Profile problems of `status.refusals`: each names a kind one of the profile's routing templates
 * renders, or (`made_from`) the rendered kind a controller makes it from (a misspelt kind would
 * never match, and a refused route would go unseen).
 */
export function refusalProblems(
  doc: SourceDocument,
  profile: EngineProfile,
  templates: Readonly<Record<string, ParsedTemplate>>,
): CatalogProblem[] {
  const refs = Object.values(profile.routing).flat();
  // A template that did not parse is reported already; its kind cannot be known.
  if (refs.some(ref => !templates[ref])) return [];
  const kinds = [
    ...new Set(
      refs
        .map(
          ref => (templates[ref].tree as { kind?: unknown } | undefined)?.kind,
        )
        .filter((k): k is string => typeof k === 'string'),
    ),
  ];
  const rendered = `is not a kind this profile's routing renders (${
    kinds.join(', ') || 'none'
  })`;
  const problems: CatalogProblem[] = [];
  (profile.status.refusals ?? []).forEach((r, i) => {
    // Made by a controller from a rendered object: that object's kind must be rendered.
    const [key, kind, fix] =
      r.madeFrom !== undefined
        ? [
            'made_from',
            r.madeFrom,
            `made_from names the rendered object a controller makes the ${r.kind} from`,
          ]
        : [
            'kind',
            r.kind,
            'fix the kind, remove the entry, or name what a controller makes it from (made_from, api_version)',
          ];
    if (!kinds.includes(kind))
      problems.push(
        problemAt(
          doc,
          ['status', 'refusals', i, key],
          `${kind} ${rendered}; ${fix}`,
          'value',
        ),
      );
  });
  return problems;
}
