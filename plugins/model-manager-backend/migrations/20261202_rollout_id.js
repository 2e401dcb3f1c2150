/**
 * The rollout a deploy belongs to (the scaffolder task id of `model-manager:rollout`), so a
 * rollout resumed after a restart can tell which of its targets are already applied and never
 * applies one twice.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('model_deployments', table => {
    table
      .string('rollout_id', 255)
      .nullable()
      .comment('The rollout (scaffolder task) this deploy belongs to');
    table.index(['rollout_id'], 'model_deployments_rollout_idx');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('model_deployments', table => {
    table.dropIndex(['rollout_id'], 'model_deployments_rollout_idx');
    table.dropColumn('rollout_id');
  });
};
