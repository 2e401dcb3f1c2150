import { createHash } from 'node:crypto';
import { stringifyEntityRef, type Entity } from '@backstage/catalog-model';
import {
  MODEL_ANNOTATION,
  type Catalog,
  type CatalogModel,
} from '@model-manager/plugin-model-manager-common';
import type { ModelDeployments } from './types';

/**
 * What was provided last, in digests (about 100 bytes per entity, never the entities):
 * - `entities`: a digest of each entity's JSON, by entity ref;
 * - `models`: per model, a digest of everything its entities are built from (its models.yaml
 *   entry and where it is deployed) and the refs of its entities;
 * - `shared`: a digest of what every model's entities are built from (the runtimes, the file).
 */
export interface ProvidedEntities {
  entities: ReadonlyMap<string, string>;
  models: ReadonlyMap<string, { inputs: string; refs: string[] }>;
  shared: string;
}

/** The change from what was provided last to the entities of a new catalog. */
export interface EntityDelta {
  /** New entities, and entities whose content changed. */
  added: Entity[];
  /** Refs of entities provided before and not any more. */
  removed: string[];
  /** What is provided once this delta is applied (to compare the next catalog against). */
  provided: ProvidedEntities;
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('base64');

/** Digests of what the entities of `catalog` are built from: shared, and per model. */
export function entityInputs(
  catalog: Catalog,
  deployments: ModelDeployments,
): { shared: string; model: (model: CatalogModel) => string } {
  const runtimes = Object.values(catalog.runtimes).map(r => [
    r.name,
    r.versioned,
    r.config,
  ]);
  return {
    shared: sha1(JSON.stringify([catalog.modelsFile, runtimes])),
    model: model =>
      sha1(JSON.stringify([model.config, deployments[model.name] ?? null])),
  };
}

/**
 * A model is built again only when its inputs changed: the same inputs give the same entities
 * (`buildEntities` is pure and deterministic: resolving a model reads its entry and its runtime,
 * both in the inputs). Undefined when nothing was provided yet or a shared input changed: then
 * every model is built.
 */
export function unchangedModels(
  previous: ProvidedEntities | undefined,
  inputs: ReturnType<typeof entityInputs>,
): ((model: CatalogModel) => boolean) | undefined {
  if (!previous || previous.shared !== inputs.shared) return undefined;
  return model =>
    previous.models.get(model.name)?.inputs === inputs.model(model);
}

/**
 * Compares what was built with what was provided last, so that a change to one model becomes a
 * delta mutation of that model's entities only, instead of a full mutation of every entity
 * (which the catalog has to hash and compare one by one:
 * backstage/backstage plugins/catalog-backend/src/database/DefaultProviderDatabase.ts,
 * `createDelta`). `built` holds the runtimes' entities and those of the models that were built;
 * the models in `catalog` that were not (`unchangedModels`) keep their entities as provided.
 */
export function diffEntities(
  previous: ProvidedEntities | undefined,
  catalog: Catalog,
  inputs: ReturnType<typeof entityInputs>,
  built: Entity[],
): EntityDelta {
  const before = previous?.entities ?? new Map<string, string>();
  const entities = new Map<string, string>();
  const models = new Map<string, { inputs: string; refs: string[] }>();
  const builtModels = new Set<string>();
  const added: Entity[] = [];
  // One string per ref, shared by both maps.
  const refs = built.map(entity => stringifyEntityRef(entity));
  for (const [i, entity] of built.entries()) {
    const ref = refs[i];
    const digest = sha1(JSON.stringify(entity));
    entities.set(ref, digest);
    if (before.get(ref) !== digest) added.push(entity);
    const model = entity.metadata.annotations?.[MODEL_ANNOTATION];
    if (model) builtModels.add(model);
  }
  for (const model of Object.values(catalog.models)) {
    const kept = builtModels.has(model.name)
      ? undefined
      : previous?.models.get(model.name);
    if (kept) {
      for (const ref of kept.refs) entities.set(ref, before.get(ref)!);
      models.set(model.name, kept);
    } else {
      models.set(model.name, { inputs: inputs.model(model), refs: [] });
    }
  }
  for (const [i, entity] of built.entries()) {
    const model = entity.metadata.annotations?.[MODEL_ANNOTATION];
    if (model && builtModels.has(model)) models.get(model)?.refs.push(refs[i]);
  }
  const removed = [...before.keys()].filter(ref => !entities.has(ref));
  return {
    added,
    removed,
    provided: { entities, models, shared: inputs.shared },
  };
}
