import { createHash } from 'node:crypto';
import { stringifyEntityRef, type Entity } from '@backstage/catalog-model';

/** What was provided last: a digest of each entity's JSON, by entity ref. */
export type ProvidedEntities = ReadonlyMap<string, string>;

/** The change from what was provided last to `entities`. */
export interface EntityDelta {
  /** New entities, and entities whose content changed. */
  added: Entity[];
  /** Refs of entities provided before and not any more. */
  removed: string[];
  /** What is provided once this delta is applied (to compare the next catalog against). */
  provided: ProvidedEntities;
}

/** The digests of `entities`, by entity ref. */
export function providedEntities(entities: Entity[]): ProvidedEntities {
  return new Map(entities.map(e => [stringifyEntityRef(e), digest(e)]));
}

/**
 * Compares freshly built entities with what was provided last, so that a change to one model
 * becomes a delta mutation of that model's entities only, instead of a full mutation of every
 * entity (which the catalog has to hash and compare one by one:
 * backstage/backstage plugins/catalog-backend/src/database/DefaultProviderDatabase.ts,
 * `createDelta`). Only digests are kept (about 100 bytes per entity), not the entities.
 * `buildEntities` is deterministic, so the same model gives the same JSON and the same digest.
 */
export function diffEntities(
  previous: ProvidedEntities,
  entities: Entity[],
): EntityDelta {
  const provided = new Map<string, string>();
  const added: Entity[] = [];
  for (const entity of entities) {
    const ref = stringifyEntityRef(entity);
    const hash = digest(entity);
    provided.set(ref, hash);
    if (previous.get(ref) !== hash) added.push(entity);
  }
  const removed = [...previous.keys()].filter(ref => !provided.has(ref));
  return { added, removed, provided };
}

function digest(entity: Entity): string {
  return createHash('sha1').update(JSON.stringify(entity)).digest('base64');
}
