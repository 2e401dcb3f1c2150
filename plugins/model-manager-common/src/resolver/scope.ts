import type {
  Catalog,
  CatalogModel,
  CatalogRuntime,
  Origin,
} from '../catalog/types';
import type { EngineProfile } from '../profile/types';
import type {
  CategoryConfig,
  ModelConfig,
  RuntimeConfig,
} from '../schema/modelsFileSchema';
import type { CatalogProblem } from '../source/types';
import type { RemovedSetting, ServerOverrides, Traced } from './types';

export type Path = ReadonlyArray<string | number>;
export type Failure = { problems: CatalogProblem[]; notFound: boolean };

/** Everything one model's resolution reads: the model, its runtime and category, and their paths. */
export interface Scope {
  catalog: Catalog;
  model: CatalogModel;
  m: ModelConfig;
  runtime: CatalogRuntime;
  r: RuntimeConfig;
  profile: EngineProfile;
  category: CategoryConfig;
  overrides: ServerOverrides;
  mPath: Path;
  rPath: Path;
  cPath: Path;
  at(layer: Origin['layer'], path: Path): Origin;
  request(path: Path): Origin;
  /** Settings removed with `null`, collected across settings. */
  removed: RemovedSetting[];
}

export const failAt = (
  catalog: Catalog,
  origin: Origin,
  message: string,
  notFound = false,
): Failure => ({
  problems: [problemAt(catalog.locate(origin), message)],
  notFound,
});
export const failed = (x: unknown): x is Failure =>
  typeof x === 'object' && x !== null && 'problems' in x;

export const asText = (t: Traced<string | number>): Traced<string> => ({
  value: String(t.value),
  origin: t.origin,
  overrode: t.overrode.map(o => ({ ...o, value: String(o.value) })),
});

/** The record of a setting removed with `null` by the layer at `origin`. */
export function removal(
  key: string,
  traced: Traced<string | number>,
  origin: Origin,
): RemovedSetting {
  return {
    key,
    origin,
    overrode: [
      ...traced.overrode,
      { value: traced.value, origin: traced.origin },
    ],
  };
}

export function problemAt(origin: Origin, message: string): CatalogProblem {
  return {
    file: origin.file,
    line: origin.line,
    col: origin.col,
    path: origin.path,
    message,
  };
}
