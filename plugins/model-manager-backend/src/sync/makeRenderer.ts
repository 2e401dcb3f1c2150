import {
  renderManifests,
  resolveServer,
  type Catalog,
  type ServerOverrides,
} from '@model-manager/plugin-model-manager-common';
import type { Rendering } from './syncState';

/**
 * What the catalog renders for (model, namespace, overrides), memoized for one catalog: a fleet of
 * many targets of one model renders each distinct request once.
 */
export function makeRenderer(catalog: Catalog) {
  const memo = new Map<string, Rendering>();
  return (
    model: string,
    namespace: string,
    overrides: ServerOverrides,
  ): Rendering => {
    const key = JSON.stringify([model, namespace, overrides]);
    let rendering = memo.get(key);
    if (!rendering) {
      rendering = renderOnce(catalog, model, namespace, overrides);
      memo.set(key, rendering);
    }
    return rendering;
  };
}

function renderOnce(
  catalog: Catalog,
  model: string,
  namespace: string,
  overrides: ServerOverrides,
): Rendering {
  if (!Object.prototype.hasOwnProperty.call(catalog.models, model))
    return { error: `model ${model} is no longer in ${catalog.modelsFile}` };
  try {
    const server = resolveServer(catalog, model, overrides, { locate: false });
    return {
      objects: renderManifests(catalog, server, { namespace }),
      version: server.version?.value,
      image: server.image.value,
      apiPrefix: server.plumbing.api_prefix?.value,
      pinnedByModel: server.version?.origin.layer === 'model',
    };
  } catch (e) {
    return { error: (e as Error).message };
  }
}
