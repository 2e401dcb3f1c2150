import type { ModelsFile } from '../schema/modelsFileSchema';
import type { CatalogProblem } from '../source/types';
import type { Layer } from '../resolver/layers';
import type { CatalogRuntime, Origin } from './types';

/**
 * Every `weight_format` of models.yaml (a category's `defaults.weight_format`, a model's
 * `weight_format`) that the runtime's engine does not accept: its profile's `weights.formats` (OVMS:
 * what `ovms --pull --weight-format` hands to optimum-cli). A runtime whose engine converts no
 * weights is not checked here: the resolver refuses any weight_format for it, naming the layer.
 */
export function weightFormatProblems(
  modelsFile: ModelsFile,
  runtimes: Readonly<Record<string, CatalogRuntime>>,
  at: {
    modelsPath: string;
    origin(
      layer: Layer,
      file: string,
      path: ReadonlyArray<string | number>,
    ): Origin;
    locate<T extends Origin>(o: T): T;
  },
): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  const check = (
    runtimeName: string,
    value: string | null | undefined,
    layer: Layer,
    path: Array<string | number>,
  ) => {
    if (typeof value !== 'string') return;
    const runtime = Object.prototype.hasOwnProperty.call(runtimes, runtimeName)
      ? runtimes[runtimeName]
      : undefined;
    const profile = runtime?.profile;
    if (!profile?.convertsWeights || profile.weightFormats.includes(value))
      return;
    const o = at.locate(at.origin(layer, at.modelsPath, path));
    problems.push({
      file: o.file,
      line: o.line,
      col: o.col,
      path: o.path,
      message: `weight_format must be one of ${profile.weightFormats.join(
        ', ',
      )}: what ${
        profile.converter ?? profile.engine
      } accepts for runtime ${runtimeName} (its engine profile ${
        profile.file
      }, weights.formats)`,
    });
  };
  for (const [name, runtime] of Object.entries(modelsFile.runtimes)) {
    for (const [category, c] of Object.entries(runtime.categories ?? {}))
      check(name, c.defaults?.weight_format, 'category', [
        'runtimes',
        name,
        'categories',
        category,
        'defaults',
        'weight_format',
      ]);
  }
  for (const [name, m] of Object.entries(modelsFile.models))
    check(m.server.runtime, m.weight_format, 'model', [
      'models',
      name,
      'weight_format',
    ]);
  return problems;
}
