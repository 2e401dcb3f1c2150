import type { Entity } from '@backstage/catalog-model';

/** The catalog Component of model `name` (its `model-manager.io/model` annotation), with `annotations` added. */
export function modelEntity(
  name = 'qwen',
  annotations: Record<string, string> = {},
): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Component',
    metadata: {
      name,
      annotations: { 'model-manager.io/model': name, ...annotations },
    },
    spec: {
      type: 'model-server',
      owner: 'group:default/ml',
      lifecycle: 'production',
    },
  };
}

/** The catalog Resource of runtime `name` (its `model-manager.io/runtime` annotation), `<name>-runtime`. */
export function runtimeEntity(name: string): Entity {
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Resource',
    metadata: {
      name: `${name}-runtime`,
      annotations: { 'model-manager.io/runtime': name },
    },
    spec: { type: 'model-runtime', owner: 'group:default/ml' },
  };
}
