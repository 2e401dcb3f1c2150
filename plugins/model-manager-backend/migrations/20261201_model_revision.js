/**
 * Revision numbers per model (1, 2, 3 ... for each model) instead of one global sequence.
 * The global `revision` column stays as the row id; `model_revision` is the number users see.
 * Dry runs take no revision number. Existing rows are numbered in the order they were made, and
 * `rollback_of` (a global id until now) is mapped to the per-model number.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('model_deployments', table => {
    table
      .integer('model_revision')
      .nullable()
      .comment('Revision number per model: 1, 2, 3 ...; null for dry runs');
  });
  const rows = await knex('model_deployments')
    .select('revision', 'model', 'action', 'rollback_of')
    .orderBy('revision', 'asc');
  const next = new Map();
  const numbered = new Map();
  for (const row of rows) {
    if (row.action === 'dry-run') continue;
    const n = (next.get(row.model) ?? 0) + 1;
    next.set(row.model, n);
    numbered.set(Number(row.revision), n);
  }
  for (const row of rows) {
    const modelRevision = numbered.get(Number(row.revision)) ?? null;
    const rollbackOf =
      row.rollback_of === null || row.rollback_of === undefined
        ? null
        : numbered.get(Number(row.rollback_of)) ?? null;
    await knex('model_deployments')
      .where({ revision: row.revision })
      .update({ model_revision: modelRevision, rollback_of: rollbackOf });
  }
  await knex.schema.alterTable('model_deployments', table => {
    table.unique(['model', 'model_revision'], {
      indexName: 'model_deployments_model_revision_uq',
    });
    table.index(
      ['model', 'cluster', 'namespace', 'revision'],
      'model_deployments_target_idx',
    );
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('model_deployments', table => {
    table.dropIndex(
      ['model', 'cluster', 'namespace', 'revision'],
      'model_deployments_target_idx',
    );
    table.dropUnique(
      ['model', 'model_revision'],
      'model_deployments_model_revision_uq',
    );
    table.dropColumn('model_revision');
  });
};
