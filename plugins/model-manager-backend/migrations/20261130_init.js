/**
 * Deploy history: one row per deploy, dry-run, rollback and undeploy.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('model_deployments', table => {
    table.comment('model-manager deploy history');
    table
      .increments('revision')
      .primary()
      .comment('Revision number, increasing');
    table.string('model', 255).notNullable();
    table.string('cluster', 255).notNullable();
    table.string('namespace', 255).notNullable();
    table
      .string('action', 32)
      .notNullable()
      .comment('deploy | dry-run | rollback | undeploy');
    table
      .string('outcome', 32)
      .notNullable()
      .comment('succeeded | failed | denied');
    table
      .string('actor', 255)
      .notNullable()
      .comment('User entity ref of who asked');
    table.string('server_version', 64).nullable();
    table
      .text('overrides')
      .notNullable()
      .comment('JSON: serverVersion/env/args of the request');
    table.text('manifests').notNullable().comment('JSON: the rendered objects');
    table.text('results').notNullable().comment('JSON: per-object outcome');
    table.text('message').nullable();
    table
      .integer('rollback_of')
      .nullable()
      .comment('Revision re-applied by a rollback');
    table
      .timestamp('created_at', { useTz: true })
      .notNullable()
      .defaultTo(knex.fn.now());
    table.index(['model', 'revision'], 'model_deployments_model_idx');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('model_deployments');
};
