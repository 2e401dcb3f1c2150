import type { DatabaseService } from '@backstage/backend-plugin-api';
import { resolvePackagePath } from '@backstage/backend-plugin-api';
import type { Knex } from 'knex';
import type { DeploymentRecord, NewDeploymentRecord } from './types';

const TABLE = 'model_deployments';

/** The plugin's deploy history in its own database (SQLite or PostgreSQL via knex). */
export class DeploymentHistory {
  private constructor(private readonly db: Knex) {}

  static async create(options: { database: DatabaseService }): Promise<DeploymentHistory> {
    const db = await options.database.getClient();
    if (!options.database.migrations?.skip) {
      await db.migrate.latest({
        directory: resolvePackagePath('@model-manager/plugin-model-manager-backend', 'migrations'),
        tableName: 'model_manager_knex_migrations',
      });
    }
    return new DeploymentHistory(db);
  }

  async record(entry: NewDeploymentRecord): Promise<DeploymentRecord> {
    const createdAt = new Date();
    const rows = await this.db(TABLE)
      .insert({
        model: entry.model,
        cluster: entry.cluster,
        namespace: entry.namespace,
        action: entry.action,
        outcome: entry.outcome,
        actor: entry.actor,
        server_version: entry.serverVersion ?? null,
        overrides: JSON.stringify(entry.overrides),
        manifests: JSON.stringify(entry.manifests),
        results: JSON.stringify(entry.results),
        message: entry.message ?? null,
        rollback_of: entry.rollbackOf ?? null,
        created_at: createdAt,
      })
      .returning('revision');
    const first = rows[0] as number | { revision: number };
    const revision = typeof first === 'object' ? first.revision : first;
    return { ...entry, revision, createdAt: createdAt.toISOString() };
  }

  /** Newest first. */
  async list(model: string, options: { limit?: number } = {}): Promise<DeploymentRecord[]> {
    const rows = await this.db(TABLE)
      .where({ model })
      .orderBy('revision', 'desc')
      .limit(Math.min(options.limit ?? 100, 1000));
    return rows.map(toRecord);
  }

  async get(revision: number): Promise<DeploymentRecord | undefined> {
    const row = await this.db(TABLE).where({ revision }).first();
    return row ? toRecord(row) : undefined;
  }

  async count(): Promise<number> {
    const [{ n }] = await this.db(TABLE).count({ n: '*' });
    return Number(n);
  }
}

function toRecord(row: any): DeploymentRecord {
  return {
    revision: Number(row.revision),
    model: row.model,
    cluster: row.cluster,
    namespace: row.namespace,
    action: row.action,
    outcome: row.outcome,
    actor: row.actor,
    serverVersion: row.server_version ?? undefined,
    overrides: JSON.parse(row.overrides),
    manifests: JSON.parse(row.manifests),
    results: JSON.parse(row.results),
    message: row.message ?? undefined,
    rollbackOf: row.rollback_of ?? undefined,
    createdAt: new Date(row.created_at).toISOString(),
  };
}
