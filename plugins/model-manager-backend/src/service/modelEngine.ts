import {
  resolveServer,
  type Catalog,
} from '@model-manager/plugin-model-manager-common';

/** The model's engine name (its runtime's profile `engine`), for messages. */
export function engineOf(catalog: Catalog, model: string): string | undefined {
  return catalog.runtimes[catalog.models[model]?.config.server.runtime]?.profile
    .engine;
}

/**
 * The engine's own API path (plumbing `api_prefix`) of the model as the catalog serves it, for
 * URLs that reach the engine directly. Resolves the model: a deploy, which has resolved it
 * already, reads it from its server instead.
 */
export function apiPrefixOf(
  catalog: Catalog,
  model: string,
): string | undefined {
  try {
    return resolveServer(catalog, model, {}, { locate: false }).plumbing
      .api_prefix?.value;
  } catch {
    return undefined;
  }
}
