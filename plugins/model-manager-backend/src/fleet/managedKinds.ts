import {
  isOwnedByModel,
  renderManifests,
  resolveServer,
  type Catalog,
  type RenderedObject,
} from '@model-manager/plugin-model-manager-common';

export type ObjectType = {
  apiVersion: string;
  kind: string;
  /**
   * Not ours: an object a controller makes from one of ours (profile `status.refusals`
   * `made_from`), read for its controller's verdict only. A cluster that does not serve the kind,
   * or forbids reading it, is read without it (no verdict), never made Unknown for it.
   */
  verdictOnly?: boolean;
};

/** One object of a kind, by name (and namespace, for namespaced kinds). */
export type ObjectRef = ObjectType & { name: string; namespace?: string };

const cache = new WeakMap<Catalog, ObjectType[]>();

/**
 * A model's own objects: namespaced and owned by the model (not the shared, create-if-absent ones
 * such as the ClusterServingRuntime and the namespace's weights claim).
 */
export function isModelObject(
  o: Pick<RenderedObject, 'namespace' | 'applyPolicy'>,
): boolean {
  return o.namespace !== undefined && isOwnedByModel(o);
}

/**
 * Objects a cluster may remove by itself once done, such as a Job with
 * `ttlSecondsAfterFinished` (the weights download): gone is not missing.
 */
export function isTransient(o: Pick<RenderedObject, 'manifest'>): boolean {
  const spec = (o.manifest as { spec?: { ttlSecondsAfterFinished?: unknown } })
    .spec;
  return spec?.ttlSecondsAfterFinished !== undefined;
}

/**
 * The kinds of objects models of this catalog are made of, read from what its templates render
 * (one model per runtime), so new templates are found without code. Cached per catalog.
 */
export function managedKinds(catalog: Catalog): ObjectType[] {
  const cached = cache.get(catalog);
  if (cached) return cached;
  const seen = new Map<string, ObjectType>();
  const sample = new Map<string, string>();
  for (const model of Object.values(catalog.models)) {
    if (!sample.has(model.config.server.runtime))
      sample.set(model.config.server.runtime, model.name);
  }
  const made = new Map<string, ObjectType>();
  for (const [runtime, name] of sample) {
    const objects = renderManifests(
      catalog,
      resolveServer(catalog, name, {}, { locate: false }),
      { namespace: 'default' },
    );
    for (const o of objects.filter(isModelObject))
      seen.set(`${o.apiVersion}/${o.kind}`, {
        apiVersion: o.apiVersion,
        kind: o.kind,
      });
    // What controllers make from them, whose verdicts the status reads (the HTTPRoute Envoy AI
    // Gateway makes from an AIGatewayRoute, with its labels: so the same selector finds it).
    const rendered = new Set(objects.map(o => o.kind));
    for (const r of catalog.runtimes[runtime]?.profile.status.refusals ?? [])
      if (r.madeFrom && r.apiVersion && rendered.has(r.madeFrom))
        made.set(`${r.apiVersion}/${r.kind}`, {
          apiVersion: r.apiVersion,
          kind: r.kind,
          verdictOnly: true,
        });
  }
  for (const [key, type] of made) if (!seen.has(key)) seen.set(key, type);
  const kinds = [...seen.values()];
  cache.set(catalog, kinds);
  return kinds;
}
