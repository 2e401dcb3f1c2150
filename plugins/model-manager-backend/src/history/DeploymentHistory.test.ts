import { mockServices, TestDatabases } from '@backstage/backend-test-utils';
import { resolvePackagePath } from '@backstage/backend-plugin-api';
import { DeploymentHistory } from './DeploymentHistory';
import { withChangesFromPrevious } from './withChangesFromPrevious';
import type { DeploymentRecord, NewDeploymentRecord } from './types';

const PG_ENV = 'BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING';

const manifest = (image: string) => ({
  apiVersion: 'v1',
  kind: 'X',
  name: 'qwen',
  namespace: 'models',
  applyPolicy: 'apply' as const,
  source: 't.yaml',
  manifest: { spec: { image } },
});

const base: Omit<NewDeploymentRecord, 'action' | 'outcome'> = {
  model: 'qwen',
  cluster: 'local',
  namespace: 'models',
  actor: 'user:default/alice',
  overrides: { env: { A: '1' } },
  manifests: [manifest('a:1')],
  results: [
    {
      apiVersion: 'v1',
      kind: 'X',
      name: 'qwen',
      namespace: 'models',
      action: 'created' as const,
    },
  ],
};

describe('DeploymentHistory', () => {
  const databases = TestDatabases.create({
    ids: ['SQLITE_3', 'POSTGRES_15'],
    disableDocker: true,
  });

  it('runs against PostgreSQL in CI (the .ci/run script starts one)', () => {
    // Without this, a CI machine without PostgreSQL would silently test SQLite only.
    if (process.env.CI)
      expect(process.env[PG_ENV]).toMatch(/^postgres(ql)?:\/\//);
    expect(databases.supports('SQLITE_3')).toBe(true);
  });

  it.each(databases.eachSupportedId())(
    'numbers revisions per model; dry runs take none (%p)',
    async databaseId => {
      const knex = await databases.init(databaseId);
      const history = await DeploymentHistory.create({
        database: mockServices.database({ knex }),
      });
      const first = await history.record({
        ...base,
        action: 'deploy',
        outcome: 'succeeded',
        serverVersion: '0.24.0',
      });
      const dry = await history.record({
        ...base,
        action: 'dry-run',
        outcome: 'succeeded',
      });
      const second = await history.record({
        ...base,
        action: 'deploy',
        outcome: 'failed',
        message: 'boom',
      });
      const other = await history.record({
        ...base,
        model: 'other',
        action: 'deploy',
        outcome: 'succeeded',
      });
      const rollback = await history.record({
        ...base,
        action: 'rollback',
        outcome: 'succeeded',
        rollbackOf: first.revision,
      });

      expect([
        first.revision,
        dry.revision,
        second.revision,
        other.revision,
        rollback.revision,
      ]).toEqual([1, undefined, undefined, 1, 2]);
      // An undeploy that found nothing to delete removed nothing: no revision either.
      const nothing = await history.record({
        ...base,
        action: 'undeploy',
        outcome: 'succeeded',
        manifests: [],
        results: [{ ...base.results[0], action: 'absent' }],
      });
      expect(nothing.revision).toBeUndefined();
      const list = (await history.list('qwen')).slice(1);
      expect(list.map(r => [r.revision, r.action, r.outcome])).toEqual([
        [2, 'rollback', 'succeeded'],
        [undefined, 'deploy', 'failed'],
        [undefined, 'dry-run', 'succeeded'],
        [1, 'deploy', 'succeeded'],
      ]);
      expect(list[3]).toMatchObject({
        actor: 'user:default/alice',
        serverVersion: '0.24.0',
        overrides: { env: { A: '1' } },
        manifests: base.manifests,
        results: base.results,
      });
      expect(list[0].rollbackOf).toBe(1);
      expect(list[1].message).toBe('boom');
      expect(new Date(list[0].createdAt).getTime()).not.toBeNaN();
      expect(await history.get('qwen', 1)).toEqual(list[3]);
      expect(await history.get('other', 1)).toMatchObject({ model: 'other' });
      expect(await history.get('qwen', 99)).toBeUndefined();
      expect(await history.count()).toBe(6);
    },
  );

  it.each(databases.eachSupportedId())(
    'concurrent writers never share or skip a revision (%p)',
    async databaseId => {
      const knex = await databases.init(databaseId);
      const database = mockServices.database({ knex });
      // Two history instances on one database, as two backend replicas have.
      const a = await DeploymentHistory.create({ database });
      const b = await DeploymentHistory.create({ database });
      const records = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          (i % 2 ? a : b).record({
            ...base,
            model: i % 3 ? 'qwen' : 'bge',
            action: 'deploy',
            outcome: 'succeeded',
          }),
        ),
      );
      const numbers = (model: string) =>
        records
          .filter(r => r.model === model)
          .map(r => r.revision!)
          .sort((x, y) => x - y);
      expect(numbers('qwen')).toEqual(
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
      expect(numbers('bge')).toEqual(
        Array.from({ length: 10 }, (_, i) => i + 1),
      );
    },
  );

  it.each(databases.eachSupportedId())(
    'records made at once go in one INSERT, each answered with its own row (%p)',
    async databaseId => {
      const knex = await databases.init(databaseId);
      const history = await DeploymentHistory.create({
        database: mockServices.database({ knex }),
      });
      await history.record({ ...base, action: 'deploy', outcome: 'succeeded' });
      const inserts: string[] = [];
      knex.on('query', (q: { sql: string }) => {
        if (/^insert/i.test(q.sql)) inserts.push(q.sql);
      });
      // A rollout's targets: two models, the same model on several clusters, in one turn.
      const entries = Array.from({ length: 12 }, (_, i) => ({
        ...base,
        model: i % 3 ? 'qwen' : 'bge',
        cluster: `c${i}`,
        action: 'rollout' as const,
        outcome: 'succeeded' as const,
        manifests: [manifest(`a:${i}`)],
      }));
      const records = await Promise.all(entries.map(e => history.record(e)));
      expect(inserts).toHaveLength(1);
      // Numbered in the order recorded, after qwen's revision 1.
      expect(records.map(r => [r.model, r.revision])).toEqual([
        ['bge', 1],
        ['qwen', 2],
        ['qwen', 3],
        ['bge', 2],
        ['qwen', 4],
        ['qwen', 5],
        ['bge', 3],
        ['qwen', 6],
        ['qwen', 7],
        ['bge', 4],
        ['qwen', 8],
        ['qwen', 9],
      ]);
      // Each answer is its own row (id and number), whatever order the database returned them in.
      for (const [i, r] of records.entries()) {
        const stored = await history.get(r.model, r.revision!);
        expect(stored).toMatchObject({
          id: r.id,
          cluster: `c${i}`,
          manifests: [manifest(`a:${i}`)],
        });
      }
    },
  );

  it.each(databases.eachSupportedId())(
    'a record the database refuses fails alone; the others of its group are kept (%p)',
    async databaseId => {
      const knex = await databases.init(databaseId);
      const history = await DeploymentHistory.create({
        database: mockServices.database({ knex }),
      });
      const entry = (cluster: string) => ({
        ...base,
        cluster,
        action: 'deploy' as const,
        outcome: 'succeeded' as const,
      });
      const [first, refused, third] = await Promise.allSettled([
        history.record(entry('a')),
        // No actor: the column is NOT NULL.
        history.record({
          ...entry('b'),
          actor: undefined as unknown as string,
        }),
        history.record(entry('c')),
      ]);
      expect(refused.status).toBe('rejected');
      expect(first).toMatchObject({
        status: 'fulfilled',
        value: { cluster: 'a', revision: 1 },
      });
      expect(third).toMatchObject({
        status: 'fulfilled',
        value: { cluster: 'c', revision: 2 },
      });
      expect((await history.list('qwen')).map(r => r.cluster)).toEqual([
        'c',
        'a',
      ]);
    },
  );

  it.each(databases.eachSupportedId())(
    'latestPerTarget gives the last change of each target (%p)',
    async databaseId => {
      const knex = await databases.init(databaseId);
      const history = await DeploymentHistory.create({
        database: mockServices.database({ knex }),
      });
      await history.record({ ...base, action: 'deploy', outcome: 'succeeded' });
      const latest = await history.record({
        ...base,
        action: 'rollout',
        outcome: 'succeeded',
        manifests: [manifest('a:2')],
      });
      await history.record({
        ...base,
        action: 'dry-run',
        outcome: 'succeeded',
      });
      await history.record({ ...base, action: 'deploy', outcome: 'failed' });
      const elsewhere = await history.record({
        ...base,
        namespace: 'default',
        action: 'undeploy',
        outcome: 'succeeded',
        manifests: [],
      });
      const rows = await history.latestPerTarget();
      expect(rows.map(r => [r.namespace, r.action, r.revision]).sort()).toEqual(
        [
          ['default', 'undeploy', elsewhere.revision],
          ['models', 'rollout', latest.revision],
        ],
      );
    },
  );

  it.each(databases.eachSupportedId())(
    'latestPerTarget sees what another replica recorded, and reuses the records it has read (%p)',
    async databaseId => {
      const knex = await databases.init(databaseId);
      const database = mockServices.database({ knex });
      const one = await DeploymentHistory.create({ database });
      const two = await DeploymentHistory.create({ database });
      const kept = await one.record({
        ...base,
        action: 'deploy',
        outcome: 'succeeded',
      });
      await one.record({
        ...base,
        namespace: 'default',
        action: 'deploy',
        outcome: 'succeeded',
      });
      const first = await one.latestPerTarget();
      const byNamespace = (rows: DeploymentRecord[], namespace: string) =>
        rows.find(r => r.namespace === namespace);
      // Another replica (the same table) moves one target on.
      const moved = await two.record({
        ...base,
        namespace: 'default',
        action: 'rollout',
        outcome: 'succeeded',
        manifests: [manifest('a:3')],
      });
      const second = await one.latestPerTarget();
      expect(second.map(r => [r.namespace, r.id]).sort()).toEqual(
        [
          ['default', moved.id],
          ['models', kept.id],
        ].sort(),
      );
      expect(byNamespace(second, 'default')).toMatchObject({
        action: 'rollout',
        manifests: [manifest('a:3')],
      });
      // The unchanged target's record is the one read before (not parsed again).
      expect(byNamespace(second, 'models')).toBe(byNamespace(first, 'models'));
      expect(second).toEqual(await two.latestPerTarget());
    },
  );

  it.each(databases.eachSupportedId())(
    'the migration numbers existing rows per model and maps rollback_of (%p)',
    async databaseId => {
      const knex = await databases.init(databaseId);
      const directory = resolvePackagePath(
        '@model-manager/plugin-model-manager-backend',
        'migrations',
      );
      const config = { directory, tableName: 'model_manager_knex_migrations' };
      await knex.migrate.up({ ...config, name: '20261130_init.js' });
      const row = (model: string, action: string, rollbackOf?: number) => ({
        model,
        cluster: 'local',
        namespace: 'models',
        action,
        outcome: 'succeeded',
        actor: 'user:default/a',
        overrides: '{}',
        manifests: '[]',
        results: '[]',
        rollback_of: rollbackOf ?? null,
        created_at: new Date(),
      });
      for (const r of [
        row('a', 'deploy'),
        row('b', 'deploy'),
        row('a', 'dry-run'),
        row('a', 'deploy'),
        row('a', 'rollback', 1),
      ]) {
        await knex('model_deployments').insert(r);
      }
      await knex.migrate.latest(config);
      const history = await DeploymentHistory.create({
        database: mockServices.database({ knex, migrations: { skip: true } }),
      });
      expect(
        (await history.list('a')).map(r => [
          r.revision,
          r.action,
          r.rollbackOf,
        ]),
      ).toEqual([
        [3, 'rollback', 1],
        [2, 'deploy', undefined],
        [undefined, 'dry-run', undefined],
        [1, 'deploy', undefined],
      ]);
      expect((await history.list('b')).map(r => r.revision)).toEqual([1]);
    },
  );
});

describe('withChangesFromPrevious', () => {
  const at = (
    revision: number | undefined,
    action: NewDeploymentRecord['action'],
    image: string | undefined,
    extra: Partial<NewDeploymentRecord> = {},
  ) => ({
    ...base,
    id: revision ?? 0,
    ...(revision !== undefined ? { revision } : {}),
    action,
    outcome: 'succeeded' as const,
    manifests: image ? [manifest(image)] : [],
    createdAt: '2026-12-01T00:00:00.000Z',
    ...extra,
  });

  it('compares each revision with the one before it at the same target, labelled with its number', () => {
    const rows = withChangesFromPrevious([
      at(undefined, 'dry-run', 'a:3'),
      at(4, 'deploy', 'a:2', { namespace: 'default' }),
      at(3, 'deploy', 'a:2'),
      at(2, 'deploy', 'a:9', { outcome: 'failed' }),
      at(1, 'deploy', 'a:1'),
    ]);
    expect(rows[0].changesFromPrevious).toEqual({
      previousRevision: 3,
      objects: [
        {
          kind: 'X',
          name: 'qwen',
          namespace: 'models',
          change: 'changed',
          fields: [{ path: '.spec.image', rendered: 'a:3', live: 'a:2' }],
        },
      ],
    });
    // First deploy in another namespace: everything is new there.
    expect(rows[1].changesFromPrevious).toEqual({
      objects: [
        {
          kind: 'X',
          name: 'qwen',
          namespace: 'models',
          change: 'added',
          fields: [],
        },
      ],
    });
    // The failed revision 2 is skipped: 3 is compared with 1.
    expect(rows[2].changesFromPrevious?.previousRevision).toBe(1);
    // A failed row changed nothing: no changes are listed for it.
    expect(rows[3].changesFromPrevious).toBeUndefined();
    expect(rows[4].changesFromPrevious).toEqual({
      objects: [expect.objectContaining({ change: 'added' })],
    });
  });

  it('a deploy after an undeploy starts afresh', () => {
    const rows = withChangesFromPrevious([
      at(3, 'deploy', 'a:1'),
      at(2, 'undeploy', undefined),
      at(1, 'deploy', 'a:1'),
    ]);
    expect(rows[0].changesFromPrevious).toEqual({
      objects: [expect.objectContaining({ change: 'added' })],
    });
    expect(rows[1].changesFromPrevious).toBeUndefined();
  });
});
