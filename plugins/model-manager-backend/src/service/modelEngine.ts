import {
  resolveServer,
  type Catalog,
  type EngineProfile,
} from '@model-manager/plugin-model-manager-common';

/** The model's engine name (its runtime's profile `engine`), for messages. */
export function engineOf(catalog: Catalog, model: string): string | undefined {
  return catalog.runtimes[catalog.models[model]?.config.server.runtime]?.profile
    .engine;
}

/**
 * What selectEndpoint reads about a model's engine: its profile (the endpoint rules per routing)
 * and its runtime's routing (for objects without the routing annotation).
 */
export function endpointOptionsOf(
  catalog: Catalog,
  model: string,
): { profile?: EngineProfile; routing?: string } {
  const runtime =
    catalog.runtimes[catalog.models[model]?.config.server.runtime];
  return runtime
    ? { profile: runtime.profile, routing: runtime.config.routing }
    : {};
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
