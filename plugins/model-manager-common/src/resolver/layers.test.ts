import { buildCatalog } from '../catalog/buildCatalog';
import { fixtureSources } from '../testUtils/catalogFixtures';
import { explainServer } from './explainServer';
import { LAYERS, layerInfo } from './layers';
import { resolveServer } from './resolveServer';

const catalog = buildCatalog(fixtureSources());
const position = (id: string) => LAYERS.findIndex(l => l.id === id);

/** Every explained value of every model of the repository's catalog, with a request on top. */
const rows = Object.keys(catalog.models).flatMap(model => {
  const server = resolveServer(catalog, model);
  // A request that sets every variable again, so it replaces a value of each layer below it (a
  // Secret-backed variable with its reference: a request never carries a secret's value).
  const env = Object.fromEntries(server.env.map(e => [e.name, e.value]));
  const request = resolveServer(catalog, model, {
    ...(server.version ? { serverVersion: server.version.value } : {}),
    env: { ...env, EXTRA: '1' },
    args: ['--extra-flag=1'],
  });
  return [...explainServer(server), ...explainServer(request)].map(r => ({
    model,
    ...r,
  }));
});

describe('LAYERS', () => {
  it('has one entry per id and a distinct label for each (the CLI and the UI show the label)', () => {
    expect(new Set(LAYERS.map(l => l.id)).size).toBe(LAYERS.length);
    expect(new Set(LAYERS.map(l => l.label)).size).toBe(LAYERS.length);
  });

  it('holds every layer the resolver names', () => {
    const named = new Set(
      rows.flatMap(r => [r.layer, ...r.overrode.map(o => o.layer)]),
    );
    expect([...named].filter(l => position(l) < 0)).toEqual([]);
    // The catalog and the request exercise every layer, so the order below is checked for each.
    expect([...named].sort()).toEqual(LAYERS.map(l => l.id).sort());
  });

  it('is in the order the resolver applies: a value only replaces values of layers before its own', () => {
    const outOfOrder = rows.flatMap(r =>
      r.overrode
        .filter(o => position(o.layer) > position(r.layer))
        .map(o => `${r.model} ${r.key}: ${r.layer} replaced ${o.layer}`),
    );
    expect(outOfOrder).toEqual([]);
  });

  it('names an unknown layer by its id', () => {
    expect(layerInfo('cluster-policy')).toEqual({
      id: 'cluster-policy',
      label: 'cluster-policy',
      description: 'cluster-policy',
    });
  });
});
