import type {
  DeploymentRecord,
  Hold,
} from '@model-manager/plugin-model-manager-common';

/** Where the catalog's version comes from, for the hold's words. */
export type CatalogVersion = { version: string; pinnedByModel: boolean };

/**
 * The hold of a target: the server version its last applied revision set, by a request (a deploy
 * or a rollback of one) or by a rollout to a version. A rollout WITHOUT a version applies what the
 * catalog resolves now and records no serverVersion in its overrides, so it holds nothing.
 */
export function holdOf(
  record: DeploymentRecord | undefined,
  catalog: CatalogVersion | undefined,
): Hold | undefined {
  const version = record?.overrides.serverVersion;
  if (!record || version === undefined || record.revision === undefined)
    return undefined;
  if (!['deploy', 'rollback', 'rollout'].includes(record.action))
    return undefined;
  const by = record.action === 'rollout' ? 'rollout' : 'request';
  const what =
    record.action === 'rollout'
      ? 'rollout'
      : record.action === 'rollback'
      ? `rollback to revision ${record.rollbackOf}`
      : 'request';
  const catalogText = catalog
    ? `; models.yaml ${
        catalog.pinnedByModel ? 'server_version (model pin)' : 'default'
      } ${catalog.version}`
    : '';
  return {
    version,
    by,
    revision: record.revision,
    actor: record.actor,
    at: record.createdAt,
    ...(catalog ? { catalogVersion: catalog.version } : {}),
    text: `held at ${version} by ${what} of ${record.createdAt.slice(
      0,
      10,
    )} by ${record.actor} (revision ${record.revision})${catalogText}`,
  };
}
