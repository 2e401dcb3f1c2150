import { plumbingValueProblem } from '../profile/plumbing';
import type { EngineProfile } from '../profile/types';
import {
  runtimeSchema,
  type RuntimeConfig,
  type ValuesFile,
} from '../schema/modelsFileSchema';
import type { SourceDocument } from '../source/types';
import type { CatalogRuntime, Origin } from './types';

/** The keys of a models.yaml `runtimes.<name>` entry that are not plumbing. */
const RUNTIME_KEYS = Object.keys(runtimeSchema.shape);
/** The keys of a values.yaml that are not plumbing. */
const VALUES_KEYS = ['profile'];

/** What checking a runtime's plumbing needs from the catalog being built. */
export interface PlumbingContext {
  modelsPath: string;
  origin(
    layer: 'plumbing',
    file: string,
    path: ReadonlyArray<string | number>,
  ): Origin;
  /** Adds a problem at an origin (its key). */
  add(o: Origin, message: string): void;
  /** Adds a problem at the value of a path of a file. */
  addAtValue(
    file: string,
    segments: Array<string | number>,
    o: Origin,
    message: string,
  ): void;
}

/**
 * The plumbing of runtime `name`: every key of its values.yaml (but `profile`) and of its
 * models.yaml entry (but the runtime keys), checked against its engine profile's `plumbing:`
 * (the key is declared; the value has the declared type). The file schemas (schemasFor) have
 * refused keys no profile declares. models.yaml wins on a clash (its keys
 * come last). Returns where each key was set; problems go to `ctx`. `kind` is for messages.
 */
export function mergePlumbing(
  name: string,
  config: RuntimeConfig,
  fromValues: { doc: SourceDocument; data: ValuesFile } | undefined,
  profile: EngineProfile,
  kind: string | undefined,
  ctx: PlumbingContext,
): { origins: CatalogRuntime['plumbingOrigins']; ok: boolean } {
  const origins: CatalogRuntime['plumbingOrigins'] = {};
  let ok = true;
  const sets: Array<{
    key: string;
    value: unknown;
    file: string;
    segments: string[];
  }> = [];
  for (const [key, value] of Object.entries(fromValues?.data ?? {})) {
    if (VALUES_KEYS.includes(key)) continue;
    sets.push({
      key,
      value,
      file: fromValues!.doc.file,
      segments: [key],
    });
  }
  for (const [key, value] of Object.entries(config)) {
    if (RUNTIME_KEYS.includes(key)) continue;
    sets.push({
      key,
      value,
      file: ctx.modelsPath,
      segments: ['runtimes', name, key],
    });
  }
  for (const { key, value, file, segments } of sets) {
    const origin = ctx.origin('plumbing', file, segments);
    const declared = Object.prototype.hasOwnProperty.call(profile.plumbing, key)
      ? profile.plumbing[key]
      : undefined;
    if (declared) {
      const problem = plumbingValueProblem(key, declared, value);
      if (problem) {
        ctx.addAtValue(file, segments, origin, problem);
        ok = false;
      } else {
        origins[key] = origin;
      }
    } else {
      ctx.add(
        origin,
        `plumbing key ${key} does not apply to runtime ${name} (${
          kind ? `${kind}, ` : ''
        }${profile.engine}): its engine profile (${
          profile.file
        }) does not declare it under plumbing:, so its objects never use it and it would be silently ignored. Remove it; keys that apply here: ${profile.plumbingKeys.join(
          ', ',
        )}`,
      );
      ok = false;
    }
  }
  return { origins, ok };
}
