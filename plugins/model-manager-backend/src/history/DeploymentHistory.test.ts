import { mockServices, TestDatabases } from '@backstage/backend-test-utils';
import { DeploymentHistory } from './DeploymentHistory';

const PG_ENV = 'BACKSTAGE_TEST_DATABASE_POSTGRES15_CONNECTION_STRING';

describe('DeploymentHistory', () => {
  const databases = TestDatabases.create({ ids: ['SQLITE_3', 'POSTGRES_15'], disableDocker: true });

  it('runs against PostgreSQL in CI (the .ci/run script starts one)', () => {
    // Without this, a CI machine without PostgreSQL would silently test SQLite only.
    if (process.env.CI) expect(process.env[PG_ENV]).toMatch(/^postgres(ql)?:\/\//);
    expect(databases.supports('SQLITE_3')).toBe(true);
  });

  it.each(databases.eachSupportedId())('records and lists deploys on %p', async databaseId => {
    const knex = await databases.init(databaseId);
    const history = await DeploymentHistory.create({ database: mockServices.database({ knex }) });
    const base = {
      model: 'qwen',
      cluster: 'local',
      namespace: 'models',
      actor: 'user:default/alice',
      overrides: { env: { A: '1' } },
      manifests: [{ apiVersion: 'v1', kind: 'X', name: 'qwen', namespace: 'models', applyPolicy: 'apply' as const, source: 't.yaml', manifest: { a: 1 } }],
      results: [{ apiVersion: 'v1', kind: 'X', name: 'qwen', namespace: 'models', action: 'created' as const }],
    };
    const first = await history.record({ ...base, action: 'deploy', outcome: 'succeeded', serverVersion: '0.24.0' });
    const second = await history.record({ ...base, action: 'deploy', outcome: 'failed', message: 'boom' });
    await history.record({ ...base, model: 'other', action: 'dry-run', outcome: 'succeeded' });
    const rollback = await history.record({ ...base, action: 'rollback', outcome: 'succeeded', rollbackOf: first.revision });

    expect(second.revision).toBeGreaterThan(first.revision);
    const list = await history.list('qwen');
    expect(list.map(r => [r.revision, r.action, r.outcome])).toEqual([
      [rollback.revision, 'rollback', 'succeeded'],
      [second.revision, 'deploy', 'failed'],
      [first.revision, 'deploy', 'succeeded'],
    ]);
    expect(list[2]).toMatchObject({ actor: 'user:default/alice', serverVersion: '0.24.0', overrides: { env: { A: '1' } }, manifests: base.manifests, results: base.results });
    expect(list[0].rollbackOf).toBe(first.revision);
    expect(list[1].message).toBe('boom');
    expect(new Date(list[0].createdAt).getTime()).not.toBeNaN();
    expect(await history.get(first.revision)).toEqual(list[2]);
    expect(await history.get(999999)).toBeUndefined();
    expect(await history.count()).toBe(4);
  });
});
