import type { Entity } from '@backstage/catalog-model';
import {
  MODEL_ANNOTATION,
  RUNTIME_ANNOTATION,
} from '@model-manager/plugin-model-manager-common';

/**
 * The model a catalog entity stands for: its `model-manager.io/model` annotation (the name in
 * models.yaml), else the entity's name (the catalog module names the entity after the model).
 */
export function modelNameOf(entity: Entity): string {
  return (
    entity.metadata.annotations?.[MODEL_ANNOTATION] ?? entity.metadata.name
  );
}

/** The runtime a Resource entity stands for: its `model-manager.io/runtime` annotation, else its name. */
export function runtimeNameOf(entity: Entity): string {
  return (
    entity.metadata.annotations?.[RUNTIME_ANNOTATION] ?? entity.metadata.name
  );
}
