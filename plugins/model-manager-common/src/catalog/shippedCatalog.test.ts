import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isMap, parseDocument } from 'yaml';
import { renderManifests } from '../renderer/renderManifests';
import { resolveServer } from '../resolver/resolveServer';
import {
  dirSources,
  REPO_ROOT,
  shippedSources,
} from '../testUtils/catalogFixtures';
import { buildCatalog } from './buildCatalog';
import type { Catalog } from './types';

// The few tests that read the shipped models.yaml and runtimes/ (every other test of this package
// reads its own test catalog, testUtils/catalog). They assert what must hold for any catalog a user
// writes, never how many engines or models it has: a user adds an engine as the README says and
// this suite stays green.

/** Every model of a catalog resolved and rendered: `<model>: <kinds>`, or what it threw. */
function renderEveryModel(catalog: Catalog): Record<string, string> {
  return Object.fromEntries(
    Object.keys(catalog.models).map(model => {
      try {
        const objects = renderManifests(
          catalog,
          resolveServer(catalog, model),
          { namespace: 'models' },
        );
        return [model, objects.length > 0 ? 'rendered' : 'no objects'];
      } catch (e) {
        return [model, `threw: ${(e as Error).message}`];
      }
    }),
  );
}

const rendered = (catalog: Catalog) =>
  Object.fromEntries(Object.keys(catalog.models).map(m => [m, 'rendered']));

/**
 * A copy of the shipped catalog in a temporary folder with the engines of `example` (a folder
 * holding a models.yaml and runtimes/, e.g. examples/extra-runtime) added: their runtime folders,
 * templates the shipped folder lacks, and their models: and runtimes: entries.
 */
function shippedPlus(example: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-shipped-'));
  fs.cpSync(path.join(REPO_ROOT, 'runtimes'), path.join(dir, 'runtimes'), {
    recursive: true,
  });
  fs.cpSync(
    path.join(REPO_ROOT, example, 'runtimes'),
    path.join(dir, 'runtimes'),
    {
      recursive: true,
      force: false,
    },
  );
  const doc = parseDocument(
    fs.readFileSync(path.join(REPO_ROOT, 'models.yaml'), 'utf8'),
  );
  const added = parseDocument(
    fs.readFileSync(path.join(REPO_ROOT, example, 'models.yaml'), 'utf8'),
  );
  for (const section of ['models', 'runtimes']) {
    const entries = added.get(section);
    if (!isMap(entries)) throw new Error(`${example}: no ${section}: map`);
    for (const pair of entries.items)
      doc.setIn([section, pair.key], pair.value);
  }
  fs.writeFileSync(path.join(dir, 'models.yaml'), doc.toString());
  return dir;
}

describe('the shipped catalog (models.yaml and runtimes/ at the repository root)', () => {
  const shipped = buildCatalog(shippedSources());

  it('every shipped model resolves and renders', () => {
    expect(Object.keys(shipped.models).length).toBeGreaterThan(0);
    expect(renderEveryModel(shipped)).toEqual(rendered(shipped));
  });

  it('an engine added as data (examples/extra-runtime) keeps every model resolving and rendering', () => {
    const dir = shippedPlus('examples/extra-runtime');
    try {
      const catalog = buildCatalog(dirSources(dir));
      const example = buildCatalog(dirSources('examples/extra-runtime'));
      const union = (a: object, b: object) =>
        [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      expect(Object.keys(catalog.runtimes).sort()).toEqual(
        union(shipped.runtimes, example.runtimes),
      );
      expect(Object.keys(catalog.models).sort()).toEqual(
        union(shipped.models, example.models),
      );
      expect(renderEveryModel(catalog)).toEqual(rendered(catalog));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
