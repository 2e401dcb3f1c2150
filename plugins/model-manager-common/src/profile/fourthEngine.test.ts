import fs from 'node:fs';
import path from 'node:path';
import { buildCatalog } from '../catalog/buildCatalog';
import type { Catalog } from '../catalog/types';
import { renderManifests } from '../renderer/renderManifests';
import { resolveServer } from '../resolver/resolveServer';
import { selectEndpoint } from '../status/selectEndpoint';
import {
  catalogDirWith,
  FOURTH_ENGINE_DIR,
} from '../testUtils/combinedCatalog';
import {
  dirSources,
  FIXTURE_CATALOG_DIR,
  REPO_ROOT,
} from '../testUtils/catalogFixtures';

// A fourth engine added as data only (testUtils/fourth-engine), beside the test catalog's two and
// the third engine of examples/extra-runtime: a plumbing key, a routing value and categories no
// other engine has. The test names the engine only through what it reads from that folder.
const BASE = [FIXTURE_CATALOG_DIR, 'examples/extra-runtime'];
const others = built(catalogDirOf(BASE));
const fourth = buildCatalog(dirSources(FOURTH_ENGINE_DIR));
const [runtimeName] = Object.keys(fourth.runtimes);
const profile = fourth.runtimes[runtimeName].profile;
const [routing] = Object.keys(profile.routing);
/** The plumbing key only the fourth engine declares (port). */
const [newKey] = profile.plumbingKeys.filter(
  k =>
    !Object.values(others.runtimes).some(r =>
      r.profile.plumbingKeys.includes(k),
    ),
);

function catalogDirOf(folders: string[], ...more: string[]): string {
  return catalogDirWith(folders[0], ...folders.slice(1), ...more);
}

/** The catalog of a temporary folder, with `change` applied to its models.yaml; removes the folder. */
function built(dir: string, change: (text: string) => string = t => t) {
  try {
    const sources = dirSources(dir);
    sources.models.text = change(sources.models.text);
    return buildCatalog(sources);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The four engines' catalog, with `change` applied to its models.yaml. */
function fourEngines(change?: (text: string) => string): Catalog {
  return built(catalogDirOf(BASE, FOURTH_ENGINE_DIR), change);
}

const render = (catalog: Catalog, model: string) =>
  renderManifests(catalog, resolveServer(catalog, model), {
    namespace: 'models',
  });
const container = (isvc: any) => isvc.spec.predictor.containers[0];

describe('a fourth engine added as data only (testUtils/fourth-engine)', () => {
  const catalog = fourEngines();
  const models = Object.keys(fourth.models);

  it('is new in every way the issue names: a plumbing key, a routing value, its categories', () => {
    expect(Object.keys(catalog.runtimes)).toHaveLength(4);
    expect(newKey).toBeDefined();
    expect(profile.plumbing[newKey]).toMatchObject({ type: 'integer' });
    for (const r of Object.values(others.runtimes)) {
      expect(Object.keys(r.profile.routing)).not.toContain(routing);
      expect(Object.keys(r.profile.apiOperations)).not.toEqual(
        expect.arrayContaining(Object.keys(profile.apiOperations)),
      );
    }
    // Every model of every engine resolves and renders.
    for (const model of Object.keys(catalog.models))
      expect(render(catalog, model).length).toBeGreaterThan(0);
  });

  it('renders its objects with the new key at its declared default, as a number, and its route', () => {
    const port = profile.plumbing[newKey].default;
    expect(typeof port).toBe('number');
    for (const model of models) {
      const objects = render(catalog, model);
      expect(objects.map(o => `${o.kind}:${o.applyPolicy}`)).toEqual([
        'InferenceService:apply',
        'HTTPRoute:apply',
      ]);
      const isvc = objects[0].manifest as any;
      expect(isvc.metadata.annotations['model-manager.io/routing']).toBe(
        routing,
      );
      expect(container(isvc).ports).toEqual([
        { containerPort: port, protocol: 'TCP' },
      ]);
      expect(container(isvc).command).toContain(`--${newKey}=${port}`);
      expect(container(isvc).command).toContain(
        `--model-id=${catalog.models[model].config.model_id}`,
      );
      const route = objects[1].manifest as any;
      expect(route.spec.parentRefs).toEqual([
        {
          name: catalog.runtimes[runtimeName].config.gateway_name,
          namespace: catalog.runtimes[runtimeName].config.gateway_namespace,
        },
      ]);
      expect(route.spec.rules[0].matches[0].path.value).toBe(
        `/models/${model}`,
      );
      expect(route.spec.rules[0].backendRefs).toEqual([
        { name: `${model}-predictor`, port: 80 },
      ]);
    }
  });

  it('a runtime value of the new key wins over the default, everywhere the templates use it, traced to its file', () => {
    const changed = fourEngines(t =>
      t.replace(
        new RegExp(`\\n  ${runtimeName}:\\n`),
        `\n  ${runtimeName}:\n    ${newKey}: 9000\n`,
      ),
    );
    const [model] = models;
    const isvc = render(changed, model)[0].manifest as any;
    expect(container(isvc).ports[0].containerPort).toBe(9000);
    expect(container(isvc).command).toContain(`--${newKey}=9000`);
    expect(resolveServer(changed, model).plumbing[newKey]).toMatchObject({
      value: 9000,
      origin: {
        layer: 'plumbing',
        file: 'models.yaml',
        path: `runtimes.${runtimeName}.${newKey}`,
      },
    });
  });

  it('a value of the wrong type for the new key is refused at its line, saying what to write', () => {
    expect(() =>
      fourEngines(t =>
        t.replace(
          new RegExp(`\\n  ${runtimeName}:\\n`),
          `\n  ${runtimeName}:\n    ${newKey}: "9000"\n`,
        ),
      ),
    ).toThrow(
      new RegExp(
        `models\\.yaml:\\d+:\\d+: runtimes\\.${runtimeName}\\.${newKey}: ${newKey} must be a whole number .*written without quotes`,
      ),
    );
  });

  it("its own categories serve what its profile's api.operations says", () => {
    for (const model of models) {
      const { category } = catalog.models[model].config;
      expect(profile.apiOperations[category]?.length).toBeGreaterThan(0);
    }
  });

  it('its endpoint follows its routing rule: the shared gateway under the model path, else the URL KServe reports, bypassing the route', () => {
    const [model] = models;
    const live = {
      ...(render(catalog, model)[0].manifest as any),
      status: { url: `http://${model}-predictor.models.svc` },
    };
    const options = {
      live,
      cluster: 'local',
      profile,
      apiPrefix: undefined,
    };
    expect(
      selectEndpoint({ ...options, gatewayBaseUrl: 'https://gw.example.com' }),
    ).toEqual({
      source: 'gateway',
      baseUrl: `https://gw.example.com/models/${model}/v1`,
      message: expect.stringContaining('gatewayBaseUrl'),
    });
    expect(selectEndpoint(options)).toMatchObject({
      source: 'status-url',
      baseUrl: `http://${model}-predictor.models.svc/v1`,
      bypassesGateway: true,
      message: expect.stringContaining(
        `directly (its /v1 API), not through the shared Gateway's HTTPRoute`,
      ),
    });
  });

  it("the engine, its routing value and its image appear nowhere in the packages' code", () => {
    const image = String(fourth.runtimes[runtimeName].config.image).replace(
      /:[^/]*$/,
      '',
    );
    const terms = [profile.engine, routing, image];
    // As written (HTTPRoute, the Gateway API kind, is not the routing value httproute).
    const wholeWord = (term: string) =>
      new RegExp(`\\b${term.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\b`);
    const hits: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, entry.name);
        // Product code only: tests and test utilities are where the engine is named.
        if (entry.isDirectory()) {
          if (!/^(testUtils|__testUtils__|__fixtures__)$/.test(entry.name))
            walk(p);
        } else if (/(?<!\.test)\.(ts|tsx)$/.test(entry.name)) {
          const text = fs.readFileSync(p, 'utf8');
          for (const term of terms)
            if (wholeWord(term).test(text))
              hits.push(`${path.relative(REPO_ROOT, p)}: ${term}`);
        }
      }
    };
    for (const root of ['plugins', 'packages']) {
      for (const pkg of fs.readdirSync(path.join(REPO_ROOT, root))) {
        const src = path.join(REPO_ROOT, root, pkg, 'src');
        if (fs.existsSync(src)) walk(src);
      }
    }
    expect(hits).toEqual([]);
  });
});
