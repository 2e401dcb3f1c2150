import { formatPath } from '../source/problems';
import type { Layer, Origin, SourceIndex } from './types';

/** The key under which a node of the shared-origins tree keeps its origin. */
const ORIGIN = Symbol('origin');

/**
 * An origin that keeps its path segments in a private field (not in JSON, not seen by equality
 * checks), so `locate` can find its line:col later. Cheaper than a WeakMap from origins to paths:
 * a catalog creates hundreds of thousands of origins.
 */
class LocatableOrigin implements Origin {
  declare line?: number;
  declare col?: number;
  readonly path: string;
  readonly #segments: ReadonlyArray<string | number>;

  constructor(
    readonly layer: Layer,
    readonly file: string,
    segments: ReadonlyArray<string | number>,
  ) {
    this.path = formatPath(segments);
    this.#segments = segments;
  }

  static segmentsOf(o: Origin): ReadonlyArray<string | number> | undefined {
    return o instanceof LocatableOrigin ? o.#segments : undefined;
  }
}

/**
 * The origins of a catalog's values. Origins get their line:col only when asked (`locate`):
 * loading a catalog never pays for locating its thousands of values. Runtime-level values
 * (runtime env, categories, versions, plumbing) are the same for every model of a runtime: their
 * origins are made once and shared, found through a tree of maps keyed by layer, file and each
 * path segment (no key strings to build). Model origins are not kept.
 */
export function createOriginIndex(index: SourceIndex): {
  origin(
    layer: Layer,
    file: string,
    path: ReadonlyArray<string | number>,
  ): Origin;
  locate<T extends Origin>(o: T): T;
} {
  const shared = new Map<unknown, any>();
  const origin = (
    layerName: Layer,
    file: string,
    path: ReadonlyArray<string | number>,
  ): Origin => {
    if (layerName === 'model' || layerName === 'override')
      return new LocatableOrigin(layerName, file, path);
    let node = shared.get(layerName);
    if (!node) shared.set(layerName, (node = new Map()));
    let next = node.get(file);
    if (!next) node.set(file, (next = new Map()));
    node = next;
    for (const segment of path) {
      next = node.get(segment);
      if (!next) node.set(segment, (next = new Map()));
      node = next;
    }
    let o: Origin | undefined = node.get(ORIGIN);
    if (!o) node.set(ORIGIN, (o = new LocatableOrigin(layerName, file, path)));
    return o;
  };
  const locate = <T extends Origin>(o: T): T => {
    const path = LocatableOrigin.segmentsOf(o);
    if (path && o.line === undefined) {
      const pos = index[o.file]?.locate(path);
      if (pos) {
        o.line = pos.line;
        o.col = pos.col;
      }
    }
    return o;
  };
  return { origin, locate };
}
