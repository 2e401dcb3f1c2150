import type { DatabaseService } from '@backstage/backend-plugin-api';
import { resolvePackagePath } from '@backstage/backend-plugin-api';
import type { Knex } from 'knex';
import type { DeploymentRecord, NewDeploymentRecord } from './types';

const TABLE = 'model_deployments';
/** Attempts to take the next per-model revision when another writer takes the same one. */
const MAX_REVISION_ATTEMPTS = 20;
/**
 * The most entries one INSERT writes: 17 bound values a row, far under the limits of SQLite
 * (32,766) and PostgreSQL (65,535).
 */
const MAX_GROUP = 200;

/**
 * The plugin's deploy history in its own database (SQLite or PostgreSQL via knex). Revisions are
 * numbered per model (1, 2, 3 ...) for what changed a cluster ({@link takesRevision}); dry runs,
 * failures and undeploys of nothing are kept without a revision. Several backend
 * replicas may record at once: a unique index on (model, revision) makes a writer that took a
 * number already taken try the next one.
 */
export class DeploymentHistory {
  /**
   * The records {@link DeploymentHistory.latestPerTarget} last answered, by id. Rows are only
   * ever inserted, never changed, so a record read once stays true: each call reads which ids
   * are the latest (one grouped query) and parses only the rows it has not seen, instead of
   * every target's manifests again (10,000 targets: the fleet rebuilds on every watched change).
   */
  private latestById = new Map<number, DeploymentRecord>();
  /** Entries waiting for their write ({@link DeploymentHistory.record}). */
  private readonly queue: Pending[] = [];
  private writing = false;

  private constructor(private readonly db: Knex) {}

  static async create(options: {
    database: DatabaseService;
  }): Promise<DeploymentHistory> {
    const db = await options.database.getClient();
    if (!options.database.migrations?.skip) {
      await db.migrate.latest({
        directory: resolvePackagePath(
          '@model-manager/plugin-model-manager-backend',
          'migrations',
        ),
        tableName: 'model_manager_knex_migrations',
      });
    }
    return new DeploymentHistory(db);
  }

  /**
   * Records one entry; its revision (per model) is the next free one. Entries recorded while a
   * write is under way join the next write, and the numbered ones of a write go in one INSERT
   * (group commit: a rollout applying 16 targets at once writes a statement per group, not per
   * target; one statement is one round trip on PostgreSQL). The answer is the same as one write
   * each: nothing is recorded until its write has committed.
   */
  record(entry: NewDeploymentRecord): Promise<DeploymentRecord> {
    return new Promise<DeploymentRecord>((resolve, reject) => {
      this.queue.push({ entry, createdAt: new Date(), resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  /** Writes the queued entries a group at a time, until none is left. */
  private async drain() {
    this.writing = true;
    try {
      // The callers of this same turn join the first group.
      await Promise.resolve();
      while (this.queue.length > 0) {
        const group = this.queue.splice(0, MAX_GROUP);
        const numbered: Pending[] = [];
        const unnumbered: Pending[] = [];
        for (const p of group)
          (takesRevision(p.entry) ? numbered : unnumbered).push(p);
        try {
          await Promise.all([
            numbered.length > 0 ? this.writeNumbered(numbered) : undefined,
            // Without a number a row has no unique key to tell its RETURNING row by: one each.
            ...unnumbered.map(p => this.writeNumbered([p])),
          ]);
        } catch (e) {
          // writeNumbered settles each entry itself; should it ever throw, none is left waiting
          // (a promise settles once: the settled ones keep their answer).
          group.forEach(p => p.reject(e));
        }
      }
    } finally {
      this.writing = false;
    }
  }

  /**
   * One INSERT of `group`; each numbered row takes the model's last revision plus its place among
   * the group's rows of that model, read in the same statement (both databases evaluate the
   * subqueries of an INSERT against the table as it was before it, so one statement is atomic
   * on SQLite). On PostgreSQL another replica may take the same number first: the unique index
   * refuses the whole statement, and it is tried again. Any other error: each row alone, so
   * only the row at fault fails. Settles every entry of the group.
   */
  private async writeNumbered(group: Pending[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const place = new Map<string, number>();
        const ordinals = group.map(p => {
          if (!takesRevision(p.entry)) return 0;
          const k = (place.get(p.entry.model) ?? 0) + 1;
          place.set(p.entry.model, k);
          return k;
        });
        const rows = group.map((p, i) =>
          rowOf(
            p.entry,
            p.createdAt,
            ordinals[i] > 0
              ? this.db.raw(
                  `(select coalesce(max(model_revision), 0) + ? from ${TABLE} where model = ?)`,
                  [ordinals[i], p.entry.model],
                )
              : null,
          ),
        );
        const inserted = (await this.db(TABLE)
          .insert(rows)
          .returning(['revision', 'model', 'model_revision'])) as Inserted[];
        // SQLite returns the rows in no set order (sqlite.org/lang_returning.html): a model's
        // k-th row of the group is its k-th lowest number.
        const byModel = new Map<string, Inserted[]>();
        for (const r of inserted)
          byModel.set(r.model, [...(byModel.get(r.model) ?? []), r]);
        for (const rs of byModel.values())
          rs.sort(
            (a, b) => Number(a.model_revision) - Number(b.model_revision),
          );
        group.forEach((p, i) =>
          p.resolve(
            recordOf(
              p,
              group.length === 1
                ? inserted[0]
                : byModel.get(p.entry.model)![ordinals[i] - 1],
            ),
          ),
        );
        return;
      } catch (e) {
        if (isUniqueViolation(e) && attempt < MAX_REVISION_ATTEMPTS) {
          // Another writer took one of these numbers; a short random pause spreads the retries.
          await new Promise(resolve =>
            setTimeout(resolve, Math.random() * 10 * attempt),
          );
          continue;
        }
        if (group.length > 1) {
          for (const p of group) await this.writeNumbered([p]);
          return;
        }
        group[0].reject(e);
        return;
      }
    }
  }

  /** The model's history, newest first. */
  async list(
    model: string,
    options: { limit?: number } = {},
  ): Promise<DeploymentRecord[]> {
    const rows = await this.db(TABLE)
      .where({ model })
      .orderBy('revision', 'desc')
      .limit(Math.min(options.limit ?? 100, 1000));
    return rows.map(toRecord);
  }

  /** The model's revision `revision` (per-model number). */
  async get(
    model: string,
    revision: number,
  ): Promise<DeploymentRecord | undefined> {
    const row = await this.db(TABLE)
      .where({ model, model_revision: revision })
      .first();
    return row ? toRecord(row) : undefined;
  }

  /**
   * For every (model, cluster, namespace) ever changed, the last record that changed it: the
   * newest succeeded deploy, rollback, rollout or undeploy (dry runs and failures left out).
   */
  async latestPerTarget(): Promise<DeploymentRecord[]> {
    const ids = (
      await this.db(TABLE)
        .max({ id: 'revision' })
        .where({ outcome: 'succeeded' })
        .whereNot({ action: 'dry-run' })
        .groupBy('model', 'cluster', 'namespace')
    ).map(row => Number(row.id));
    const known = this.latestById;
    const missing = ids.filter(id => !known.has(id));
    const next = new Map<number, DeploymentRecord>();
    // In slices: SQLite refuses statements with more than 32,766 bound values.
    for (let i = 0; i < missing.length; i += 1000) {
      const rows = await this.db(TABLE).whereIn(
        'revision',
        missing.slice(i, i + 1000),
      );
      for (const row of rows) next.set(Number(row.revision), toRecord(row));
    }
    const records: DeploymentRecord[] = [];
    for (const id of ids) {
      const record = known.get(id) ?? next.get(id);
      if (!record) continue;
      next.set(id, record);
      records.push(record);
    }
    // Only the current latest ones are kept: a target's older record is not asked for again.
    this.latestById = next;
    return records;
  }

  /**
   * The targets a rollout has applied so far (its succeeded rows): where, the revision and the
   * version; not the manifests (asked once per batch, so it stays cheap as the rollout grows).
   */
  async appliedInRollout(rolloutId: string): Promise<
    Array<{
      model: string;
      cluster: string;
      namespace: string;
      revision?: number;
      serverVersion?: string;
    }>
  > {
    const rows = await this.db(TABLE)
      .select(
        'model',
        'cluster',
        'namespace',
        'model_revision',
        'server_version',
      )
      .where({ rollout_id: rolloutId, outcome: 'succeeded' });
    return rows.map(row => ({
      model: row.model,
      cluster: row.cluster,
      namespace: row.namespace,
      ...(row.model_revision !== null && row.model_revision !== undefined
        ? { revision: Number(row.model_revision) }
        : {}),
      ...(row.server_version ? { serverVersion: row.server_version } : {}),
    }));
  }

  async count(): Promise<number> {
    const [{ n }] = await this.db(TABLE).count({ n: '*' });
    return Number(n);
  }
}

/** A record waiting for its write. */
type Pending = {
  entry: NewDeploymentRecord;
  createdAt: Date;
  resolve: (record: DeploymentRecord) => void;
  reject: (error: unknown) => void;
};

/** What an INSERT returns of each row. */
type Inserted = {
  revision: number;
  model: string;
  model_revision: number | null;
};

/** The row of an entry; `modelRevision` the SQL of its number, or null. */
function rowOf(
  entry: NewDeploymentRecord,
  createdAt: Date,
  modelRevision: Knex.Raw | null,
) {
  return {
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
    rollout_id: entry.rolloutId ?? null,
    skipped_preflight: entry.skippedPreflight
      ? JSON.stringify(entry.skippedPreflight)
      : null,
    created_at: createdAt,
    model_revision: modelRevision,
  };
}

/** The record of a written entry. */
function recordOf(p: Pending, ids: Inserted): DeploymentRecord {
  return {
    ...p.entry,
    ...numbersOf(ids),
    createdAt: p.createdAt.toISOString(),
  };
}

/** A row's numbers: its id (the table's `revision` column) and, if it took one, the model's revision. */
function numbersOf(row: {
  revision: number | string;
  model_revision?: number | string | null;
}): { id: number; revision?: number } {
  return {
    id: Number(row.revision),
    ...(row.model_revision !== null && row.model_revision !== undefined
      ? { revision: Number(row.model_revision) }
      : {}),
  };
}

function isUniqueViolation(e: unknown): boolean {
  const error = e as { code?: string; message?: string };
  return (
    error?.code === '23505' ||
    error?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    /UNIQUE constraint failed/.test(error?.message ?? '')
  );
}

function toRecord(row: any): DeploymentRecord {
  return {
    ...numbersOf(row),
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
    ...(row.rollout_id ? { rolloutId: row.rollout_id } : {}),
    ...(row.skipped_preflight
      ? { skippedPreflight: JSON.parse(row.skipped_preflight) }
      : {}),
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/**
 * Whether a record takes the model's next revision: only what succeeded and could have changed a
 * cluster. A dry run changes nothing; a failed or denied deploy is kept to say what went wrong, but
 * a revision names a state one can roll back to; an undeploy that found none of the model's objects
 * (every one `absent`) removed nothing.
 */
export function takesRevision(entry: NewDeploymentRecord): boolean {
  if (entry.action === 'dry-run' || entry.outcome !== 'succeeded') return false;
  return !(
    entry.action === 'undeploy' &&
    entry.results.every(r => r.action === 'absent')
  );
}
