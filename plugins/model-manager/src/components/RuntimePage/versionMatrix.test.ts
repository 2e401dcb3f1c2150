import { target } from '../../__testUtils__';
import type { RuntimeSummary } from '../../api';
import {
  matrixClusters,
  rolloutTemplateUrl,
  versionMatrix,
} from './versionMatrix';

const runtime = (
  versioned: boolean,
  versions: string[] = [],
): RuntimeSummary => ({
  name: versioned ? 'vllm' : 'openvino',
  kind: 'x',
  versioned,
  versions: versions.map((version, i) => ({
    version,
    image: `img:${version}`,
    default: i === 0,
    env: {},
    args: [],
  })),
  env: {},
  categories: [],
  plumbing: {},
  models: [],
});

describe('versionMatrix', () => {
  it('lists every version of the runtime, newest first, with the live targets and outdated ones of each', () => {
    const rows = versionMatrix(runtime(true, ['0.9.0', '0.24.0', '0.19.1']), [
      target({ liveVersion: '0.24.0' }),
      target({ cluster: 'prod', liveVersion: '0.24.0', outdated: true }),
      target({ model: 'bge-ov', runtime: 'openvino', liveVersion: undefined }),
    ]);
    expect(
      rows.map(r => [r.version, r.targets.length, r.outdated, r.byCluster]),
    ).toEqual([
      ['0.24.0', 2, 1, { local: 1, prod: 1 }],
      ['0.19.1', 0, 0, {}],
      ['0.9.0', 0, 0, {}],
    ]);
    expect(matrixClusters(rows)).toEqual(['local', 'prod']);
  });

  it('adds versions running that models.yaml no longer lists, and targets whose version is unknown', () => {
    const rows = versionMatrix(runtime(true, ['0.24.0']), [
      target({ liveVersion: '0.17.0' }),
      target({ cluster: 'edge', state: 'Unknown', liveVersion: undefined }),
    ]);
    expect(rows.map(r => [r.version, r.inCatalog, r.targets.length])).toEqual([
      ['0.24.0', true, 0],
      ['0.17.0', false, 1],
      [undefined, false, 1],
    ]);
  });

  it('puts every target of a flat runtime in one row', () => {
    const rows = versionMatrix(runtime(false), [
      target({ runtime: 'openvino', liveVersion: undefined }),
      target({ runtime: 'openvino', cluster: 'prod', outdated: true }),
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      version: undefined,
      inCatalog: true,
      outdated: 1,
      byCluster: { local: 1, prod: 1 },
    });
  });
});

describe('rolloutTemplateUrl', () => {
  it.each([
    [undefined, { runtime: 'vllm' }],
    ['0.24.0', { runtime: 'vllm', version: '0.24.0' }],
  ])(
    'pre-fills the Roll out runtime version template (version %s) through formData',
    (version, formData) => {
      const url = new URL(rolloutTemplateUrl('vllm', version), 'http://portal');
      expect(url.pathname).toBe(
        '/create/templates/default/rollout-runtime-version',
      );
      expect(JSON.parse(url.searchParams.get('formData')!)).toEqual(formData);
    },
  );
});
