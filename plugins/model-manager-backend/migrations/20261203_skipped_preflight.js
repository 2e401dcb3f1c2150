/**
 * A deploy that asked to skip preflight (`skipPreflight: true`) names, in its history row, the
 * checks that failed and were applied past (JSON list of `id: message`); null when preflight ran
 * and passed, or was not asked to be skipped.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('model_deployments', table => {
    table
      .text('skipped_preflight')
      .nullable()
      .comment(
        'Preflight checks a deploy skipped (JSON list), when it asked to',
      );
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('model_deployments', table => {
    table.dropColumn('skipped_preflight');
  });
};
