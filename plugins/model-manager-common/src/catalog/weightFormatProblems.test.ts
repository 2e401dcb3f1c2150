import fs from 'node:fs';
import path from 'node:path';
import { renderManifests } from '../renderer/renderManifests';
import { resolveServer } from '../resolver/resolveServer';
import { CatalogError } from '../source/problems';
import {
  FIXTURE_CATALOG_DIR,
  fixtureSources,
  modelsYaml,
} from '../testUtils/catalogFixtures';
import { buildCatalog } from './buildCatalog';

// weight_format and where the weights go are the OVMS profile's data (weights.formats,
// weights.path): the code holds no list of formats and no path rule.

const OPENVINO = fs.readFileSync(
  path.join(FIXTURE_CATALOG_DIR, 'runtimes/openvino/profile.yaml'),
  'utf8',
);
const edit = (text: string, from: string, to: string) => {
  const out = text.replace(from, to);
  if (out === text) throw new Error(`test setup: ${from} not in the text`);
  return out;
};
const SHIPPED_FORMATS = '  formats: [fp32, fp16, int8, int4]\n';

const ovModel = (name: string, weightFormat: string) => `
  ${name}:
    model_id: microsoft/Phi-3.5-mini-instruct
    category: llm
    weight_format: ${weightFormat}
    server:
      runtime: openvino
`;

function problems(changes: Parameters<typeof fixtureSources>[0]): string[] {
  try {
    buildCatalog(fixtureSources(changes));
  } catch (e) {
    if (!(e instanceof CatalogError)) throw e;
    return e.problems.map(
      p => `${p.file}:${p.line}:${p.col}: ${p.path}: ${p.message}`,
    );
  }
  return [];
}

describe('weight_format is checked against the profile weights.formats', () => {
  const rules: Array<{
    rule: string;
    changes: Parameters<typeof fixtureSources>[0];
    expected: RegExp[];
  }> = [
    {
      rule: 'each format the OVMS profile lists loads',
      changes: {
        models: modelsYaml(
          ['fp32', 'fp16', 'int8', 'int4']
            .map(f => ovModel(`ov-${f}`, f))
            .join(''),
        ),
      },
      expected: [],
    },
    {
      rule: 'a model format the profile does not list is refused, naming the formats and the profile',
      changes: { models: modelsYaml(ovModel('ov-nf4', 'nf4')) },
      expected: [
        /^models\.yaml:\d+:\d+: models\.ov-nf4\.weight_format: weight_format must be one of fp32, fp16, int8, int4: what ovms --pull accepts for runtime openvino \(its engine profile runtimes\/openvino\/profile\.yaml, weights\.formats\)$/,
      ],
    },
    {
      rule: 'a category default the profile does not list is refused even when no model uses it',
      changes: {
        models: edit(
          modelsYaml(ovModel('ov-int4', 'int4')),
          'embed:  { defaults: { cpu: 6, memory: "12Gi" } }\n      rerank: { defaults: { cpu: 6, memory: "12Gi" } }\n',
          'embed:  { defaults: { cpu: 6, memory: "12Gi" } }\n      rerank: { defaults: { cpu: 6, memory: "12Gi", weight_format: mxfp4 } }\n',
        ),
      },
      expected: [
        /^models\.yaml:\d+:\d+: runtimes\.openvino\.categories\.rerank\.defaults\.weight_format: weight_format must be one of fp32, fp16, int8, int4/,
      ],
    },
    {
      rule: 'a profile listing other formats is followed with no code change (nf4 loads, int4 is refused)',
      changes: {
        profiles: {
          openvino: edit(OPENVINO, SHIPPED_FORMATS, '  formats: [fp16, nf4]\n'),
        },
        models: modelsYaml(
          ovModel('ov-nf4', 'nf4') + ovModel('ov-int4', 'int4'),
        ),
      },
      expected: [
        /models\.ov-int4\.weight_format: weight_format must be one of fp16, nf4: /,
      ],
    },
    {
      rule: 'a converting profile must list its formats',
      changes: { profiles: { openvino: edit(OPENVINO, SHIPPED_FORMATS, '') } },
      expected: [/weights\.formats: .*weights\.formats is required/],
    },
    {
      rule: 'a weight_format that is no name is refused when models.yaml is read',
      changes: { models: modelsYaml(ovModel('ov-bad', '"int 4"')) },
      expected: [
        /models\.ov-bad\.weight_format: weight_format must be a weight format name such as int8/,
      ],
    },
  ];
  it.each(rules)('$rule', ({ changes, expected }) => {
    const found = problems(changes);
    expect(found).toHaveLength(expected.length);
    expected.forEach((re, i) => expect(found[i]).toMatch(re));
  });
});

describe('weights_path is the profile weights.path', () => {
  const storageUri = (profile: string) => {
    const catalog = buildCatalog(
      fixtureSources({
        profiles: { openvino: profile },
        models: modelsYaml(ovModel('ov-int4', 'int4')),
      }),
    );
    const isvc = renderManifests(catalog, resolveServer(catalog, 'ov-int4'), {
      namespace: 'models',
    }).find(o => o.kind === 'InferenceService')!.manifest as any;
    return isvc.spec.predictor.model.storageUri;
  };
  it.each([
    {
      rule: 'OVMS: <model name>/<model_id> under the claim',
      profile: OPENVINO,
      uri: 'pvc://model-manager-weights/ov-int4/microsoft/Phi-3.5-mini-instruct',
    },
    {
      rule: 'another layout a profile declares, with the same placeholders as download_args',
      profile: edit(
        OPENVINO,
        '  path: ${model.name}/${model.model_id}\n',
        '  path: ${model.name}-${weight_format}\n',
      ),
      uri: 'pvc://model-manager-weights/ov-int4-int4',
    },
  ])('$rule', ({ profile, uri }) => {
    expect(storageUri(profile)).toBe(uri);
  });
});
