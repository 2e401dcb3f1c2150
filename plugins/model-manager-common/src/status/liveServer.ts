import type { Catalog } from '../catalog/types';
import type { StatusReading } from '../profile/types';

/**
 * Reading a live KServe object back: which kinds carry a model's status, and where the model
 * server's image sits. Both come from the engine profiles (`status:`, the last template's kind).
 */

/** A path into an object: keys, or `{ name }` to pick the list item with that name. */
export type ObjectPath = ReadonlyArray<string | { name: string }>;

const SERVER_KINDS = new WeakMap<Catalog, ReadonlySet<string>>();

/**
 * The kinds of the model server objects of a catalog's runtimes (each profile's last template):
 * the objects whose status says whether a model serves (its "main" object).
 */
export function serverKinds(catalog: Catalog): ReadonlySet<string> {
  let kinds = SERVER_KINDS.get(catalog);
  if (!kinds) {
    kinds = new Set(Object.values(catalog.runtimes).map(r => r.config.kind));
    SERVER_KINDS.set(catalog, kinds);
  }
  return kinds;
}

/** Whether objects of this kind carry a model's status, in this catalog. */
export function isServerKind(catalog: Catalog, kind: string): boolean {
  return serverKinds(catalog).has(kind);
}

/** How a runtime's profile reads status; undefined for a runtime not in the catalog. */
export function statusReadingOf(
  catalog: Catalog,
  runtime: string,
): StatusReading | undefined {
  return Object.prototype.hasOwnProperty.call(catalog.runtimes, runtime)
    ? catalog.runtimes[runtime].profile.status
    : undefined;
}

/** The value at `path` in `object`, or undefined. */
export function readPath(object: unknown, path: ObjectPath): unknown {
  let value: any = object;
  for (const step of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value =
      typeof step === 'string'
        ? value[step]
        : Array.isArray(value)
        ? value.find(i => i?.name === step.name)
        : undefined;
  }
  return value;
}

/** The model server image of a live (or rendered) main object, where its profile says it is. */
export function serverImageOf(
  object: Record<string, unknown>,
  reading: Pick<StatusReading, 'imagePath'> | undefined,
): string | undefined {
  const image = reading ? readPath(object, reading.imagePath) : undefined;
  return typeof image === 'string' ? image : undefined;
}
