import fs from 'node:fs';
import type { KubernetesObject } from '@kubernetes/client-node';
import type {
  Catalog,
  DeploymentRecord,
  ServerOverrides,
} from '@model-manager/plugin-model-manager-common';
import { loadCatalog } from '@model-manager/plugin-model-manager-node';
import { catalogCopy } from '../__testUtils__/editableCatalog';
import { makeRenderer } from './makeRenderer';
import { syncState } from './syncState';

const MODEL = 'qwen2-5-7b-instruct';
const NS = 'models';
const IMAGE = '.spec.template.containers[name=main].image';

type Row = {
  rule: string;
  /** The catalog now: the repository's, or with default_version moved to 0.19.1. */
  now: 'repo' | 'moved';
  /** The last revision: what it asked, and the catalog it was rendered from. */
  record?: {
    action: DeploymentRecord['action'];
    overrides: ServerOverrides;
    from: 'repo' | 'moved';
  };
  /** What runs: the record's objects (or, without a record, the repository's render), edited. */
  edit?: (live: KubernetesObject[]) => KubernetesObject[];
  /** The cluster could not be read. */
  unread?: boolean;
  state: 'in-sync' | 'differs' | 'unknown';
  hold?: { by: 'request' | 'rollout'; version: string; catalogVersion: string };
  reasons: string[];
  /** A path a difference must name, with its reason. */
  at?: [string, string];
};

const rows: Row[] = [
  {
    rule: 'a plain deploy runs what a new deploy would apply',
    now: 'repo',
    record: { action: 'deploy', overrides: {}, from: 'repo' },
    state: 'in-sync',
    reasons: [],
  },
  {
    rule: 'request-pin: a deploy that asked for a server version, env and args holds the version',
    now: 'repo',
    record: {
      action: 'deploy',
      overrides: {
        serverVersion: '0.19.1',
        env: { VLLM_LOGGING_LEVEL: 'DEBUG' },
        args: ['--max-num-seqs=8'],
      },
      from: 'repo',
    },
    state: 'differs',
    hold: { by: 'request', version: '0.19.1', catalogVersion: '0.24.0' },
    reasons: ['request-pin'],
    at: [IMAGE, 'request-pin'],
  },
  {
    rule: 'rollout: a rollout to a version holds it',
    now: 'repo',
    record: {
      action: 'rollout',
      overrides: { serverVersion: '0.19.1' },
      from: 'repo',
    },
    state: 'differs',
    hold: { by: 'rollout', version: '0.19.1', catalogVersion: '0.24.0' },
    reasons: ['rollout'],
    at: [IMAGE, 'rollout'],
  },
  {
    rule: 'a rollout without a version holds nothing',
    now: 'repo',
    record: { action: 'rollout', overrides: {}, from: 'repo' },
    state: 'in-sync',
    reasons: [],
  },
  {
    rule: 'drift: a live field someone edited',
    now: 'repo',
    record: { action: 'deploy', overrides: {}, from: 'repo' },
    edit: live =>
      live.map(o =>
        o.kind === 'LLMInferenceService'
          ? withImage(o, 'docker.io/vllm/vllm-openai-cpu:v0.24.0-hotfix')
          : o,
      ),
    state: 'differs',
    reasons: ['drift'],
    at: [IMAGE, 'drift'],
  },
  {
    rule: 'drift: an object deleted from the cluster',
    now: 'repo',
    record: { action: 'deploy', overrides: {}, from: 'repo' },
    edit: live => live.filter(o => o.kind !== 'LLMInferenceService'),
    state: 'differs',
    reasons: ['drift'],
    at: ['.', 'drift'],
  },
  {
    rule: 'catalog-change: default_version moved after a plain deploy',
    now: 'moved',
    record: { action: 'deploy', overrides: {}, from: 'repo' },
    state: 'differs',
    reasons: ['catalog-change'],
    at: [IMAGE, 'catalog-change'],
  },
  {
    rule: 'a held version is not a catalog change: default_version moved away from a pinned request',
    now: 'moved',
    record: {
      action: 'deploy',
      overrides: { serverVersion: '0.24.0' },
      from: 'repo',
    },
    state: 'differs',
    hold: { by: 'request', version: '0.24.0', catalogVersion: '0.19.1' },
    reasons: ['request-pin'],
  },
  {
    rule: 'the promote step: default_version moved to the rolled-out version, nothing differs, the hold is named',
    now: 'moved',
    record: {
      action: 'rollout',
      overrides: { serverVersion: '0.19.1' },
      from: 'repo',
    },
    state: 'in-sync',
    hold: { by: 'rollout', version: '0.19.1', catalogVersion: '0.19.1' },
    reasons: [],
  },
  {
    rule: 'not-recorded: applied outside this portal, then default_version moved',
    now: 'moved',
    state: 'differs',
    reasons: ['not-recorded'],
    at: [IMAGE, 'not-recorded'],
  },
  {
    rule: 'unknown: the cluster could not be read; the hold and recorded differences still show',
    now: 'repo',
    record: {
      action: 'deploy',
      overrides: { serverVersion: '0.19.1' },
      from: 'repo',
    },
    unread: true,
    state: 'unknown',
    hold: { by: 'request', version: '0.19.1', catalogVersion: '0.24.0' },
    reasons: ['request-pin'],
  },
];

function withImage(o: KubernetesObject, image: string): KubernetesObject {
  const copy = JSON.parse(JSON.stringify(o));
  copy.spec.template.containers.find((c: any) => c.name === 'main').image =
    image;
  return copy;
}

describe('syncState', () => {
  const catalogs: Record<'repo' | 'moved', Catalog> = {} as any;
  beforeAll(async () => {
    const moved = catalogCopy();
    fs.writeFileSync(
      moved,
      fs
        .readFileSync(moved, 'utf8')
        .replace('default_version: "0.24.0"', 'default_version: "0.19.1"'),
    );
    catalogs.repo = await loadCatalog({ modelsFile: catalogCopy() });
    catalogs.moved = await loadCatalog({ modelsFile: moved });
  });

  const rendered = (from: 'repo' | 'moved', overrides: ServerOverrides) => {
    const r = makeRenderer(catalogs[from])(MODEL, NS, overrides);
    if ('error' in r) throw new Error(r.error);
    return r.objects;
  };

  it.each(rows)('$rule', row => {
    const record: DeploymentRecord | undefined = row.record && {
      id: 1,
      revision: 4,
      model: MODEL,
      cluster: 'local',
      namespace: NS,
      action: row.record.action,
      outcome: 'succeeded',
      actor: 'user:default/alice',
      overrides: row.record.overrides,
      serverVersion: row.record.overrides.serverVersion ?? '0.24.0',
      manifests: rendered(row.record.from, row.record.overrides),
      results: [],
      createdAt: '2026-12-01T10:00:00.000Z',
    };
    const applied = (record?.manifests ?? rendered('repo', {})).map(
      o => JSON.parse(JSON.stringify(o.manifest)) as KubernetesObject,
    );
    const live = row.edit ? row.edit(applied) : applied;
    const render = makeRenderer(catalogs[row.now]);
    const { sync } = syncState({
      catalog: catalogs[row.now],
      model: MODEL,
      namespace: NS,
      live: row.unread ? undefined : live,
      record,
      render: o => render(MODEL, NS, o),
    });
    expect(sync.state).toBe(row.state);
    expect([...new Set(sync.differences.map(d => d.reason))].sort()).toEqual(
      row.reasons,
    );
    if (row.hold) expect(sync.hold).toMatchObject(row.hold);
    else expect(sync.hold).toBeUndefined();
    if (row.at)
      expect(sync.differences).toContainEqual(
        expect.objectContaining({ path: row.at[0], reason: row.at[1] }),
      );
    // What a new deploy would apply is always the catalog's own resolution.
    expect(sync.newDeploy.version).toBe(
      row.now === 'moved' ? '0.19.1' : '0.24.0',
    );
    expect(sync.summary).toContain(sync.hold?.text ?? '');
  });

  it('names the hold in words: version, rollout, date, who, revision and the models.yaml default', () => {
    const render = makeRenderer(catalogs.repo);
    const { sync } = syncState({
      catalog: catalogs.repo,
      model: MODEL,
      namespace: NS,
      live: [],
      record: {
        id: 9,
        revision: 7,
        model: MODEL,
        cluster: 'local',
        namespace: NS,
        action: 'rollout',
        outcome: 'succeeded',
        actor: 'user:default/bob',
        overrides: { serverVersion: '0.19.1' },
        manifests: rendered('repo', { serverVersion: '0.19.1' }),
        results: [],
        createdAt: '2026-12-01T10:00:00.000Z',
      },
      render: o => render(MODEL, NS, o),
    });
    expect(sync.hold?.text).toBe(
      'held at 0.19.1 by rollout of 2026-12-01 by user:default/bob (revision 7); models.yaml default 0.24.0',
    );
  });
});
