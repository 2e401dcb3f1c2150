import fs from 'node:fs';
import path from 'node:path';
import { buildCatalog } from '../catalog/buildCatalog';
import type { Catalog } from '../catalog/types';
import { renderManifests } from '../renderer/renderManifests';
import type { RenderedObject } from '../renderer/types';
import { resolveServer } from '../resolver/resolveServer';
import { CatalogError } from '../source/problems';
import {
  dirSources,
  FIXTURE_CATALOG_DIR,
  FIXTURE_ENGINE_B_DIR,
  fixtureSources,
} from '../testUtils/catalogFixtures';
import { progressObjectOf } from './progressObjectOf';

const fixture = buildCatalog(fixtureSources());
const engineB = buildCatalog(dirSources(FIXTURE_ENGINE_B_DIR));

const render = (catalog: Catalog, model: string) =>
  renderManifests(catalog, resolveServer(catalog, model), {
    namespace: 'models',
  });

/** The name of the object that reports progress, and its reader's pod label. */
function progressOf(
  catalog: Catalog,
  model: string,
  objects: RenderedObject[],
) {
  const found = progressObjectOf(
    catalog,
    catalog.models[model].config.server.runtime,
    objects,
  );
  return found && { name: found.object.name, podLabel: found.reader.podLabel };
}

describe('progressObjectOf: the object the profile says reports the preparation', () => {
  const rows: Array<{
    rule: string;
    catalog: Catalog;
    model: string;
    expected: { name: string; podLabel: string } | undefined;
  }> = [
    {
      rule: 'OVMS: the weights download Job (progress: job on it)',
      catalog: fixture,
      model: 'phi-3-5-mini-instruct-int4-ov',
      expected: {
        name: 'phi-3-5-mini-instruct-int4-ov-download',
        podLabel: 'batch.kubernetes.io/job-name',
      },
    },
    {
      rule: 'vLLM: none (its profile declares no progress object)',
      catalog: fixture,
      model: 'qwen2-5-7b-instruct',
      expected: undefined,
    },
    {
      rule: 'a profile with two Jobs: the one it declares, not the first Job',
      catalog: engineB,
      model: 'helper-chat',
      expected: {
        name: 'helper-chat-prepare',
        podLabel: 'batch.kubernetes.io/job-name',
      },
    },
  ];
  it.each(rows)('$rule', ({ catalog, model, expected }) => {
    expect(progressOf(catalog, model, render(catalog, model))).toEqual(
      expected,
    );
  });

  it('a record written from another checkout (other file names): the one object of the reader kind, none when two could be it', () => {
    const moved = (objects: RenderedObject[]) =>
      objects.map(o => ({ ...o, source: `/elsewhere/${o.source}` }));
    const ov = 'phi-3-5-mini-instruct-int4-ov';
    expect(progressOf(fixture, ov, moved(render(fixture, ov)))?.name).toBe(
      `${ov}-download`,
    );
    expect(
      progressOf(engineB, 'helper-chat', moved(render(engineB, 'helper-chat'))),
    ).toBeUndefined();
  });

  it('a runtime no longer in the catalog: none', () => {
    expect(
      progressObjectOf(
        fixture,
        'gone',
        render(fixture, 'phi-3-5-mini-instruct-int4-ov'),
      ),
    ).toBeUndefined();
  });
});

const OPENVINO = fs.readFileSync(
  path.join(FIXTURE_CATALOG_DIR, 'runtimes/openvino/profile.yaml'),
  'utf8',
);

/** The profile text with `from` replaced by `to` (which must be there). */
const edit = (text: string, from: string, to: string) => {
  const out = text.replace(from, to);
  if (out === text) throw new Error(`test setup: ${from} not in the profile`);
  return out;
};

function problems(openvinoProfile: string): string[] {
  try {
    buildCatalog(fixtureSources({ profiles: { openvino: openvinoProfile } }));
  } catch (e) {
    if (!(e instanceof CatalogError)) throw e;
    return e.problems.map(p => `${p.file}:${p.line}: ${p.path}: ${p.message}`);
  }
  return [];
}

describe("a profile's progress: is checked at load time", () => {
  const rules: Array<{ rule: string; profile: string; expected: RegExp[] }> = [
    {
      rule: 'on an object whose template renders another kind than the reader reads',
      profile: edit(
        edit(OPENVINO, '    progress: job\n', ''),
        '  - template: templates/inference-service.yaml\n',
        '  - template: templates/inference-service.yaml\n    progress: job\n',
      ),
      expected: [
        /^runtimes\/openvino\/profile.yaml:\d+: objects\[3\]\.progress: progress: job reads a batch\/v1 Job, but templates\/inference-service.yaml renders serving.kserve.io\/v1beta1 InferenceService/,
      ],
    },
    {
      rule: 'on two objects',
      profile: edit(
        OPENVINO,
        '  - template: templates/weights-pvc.yaml\n    apply: create-if-absent\n',
        '  - template: templates/weights-pvc.yaml\n    apply: create-if-absent\n    progress: job\n',
      ),
      expected: [/objects: at most one object may say progress:/],
    },
    {
      rule: 'on the serving runtime',
      profile: edit(
        edit(OPENVINO, '    progress: job\n', ''),
        '  - serving_runtime: true\n',
        '  - serving_runtime: true\n    progress: job\n',
      ),
      expected: [
        /objects\[0\]\.progress: progress: applies to a template: object/,
      ],
    },
    {
      rule: 'a reader model-manager does not know',
      profile: edit(OPENVINO, '    progress: job\n', '    progress: pods\n'),
      expected: [/objects\[2\]\.progress: progress says how .* one of job/],
    },
  ];
  it.each(rules)('$rule', ({ profile, expected }) => {
    const found = problems(profile);
    expect(found).toHaveLength(expected.length);
    expected.forEach((re, i) => expect(found[i]).toMatch(re));
  });

  it('the shipped shape loads (the download Job reads as a Job)', () => {
    expect(problems(OPENVINO)).toEqual([]);
  });
});
