import type { FleetTarget } from '@model-manager/plugin-model-manager-common';

/** A fleet table row's id (material-table keeps row state by it): one target is one model in one namespace of one cluster. */
export function targetRowId(
  t: Pick<FleetTarget, 'model' | 'cluster' | 'namespace'>,
): string {
  return `${t.model}@${t.cluster}/${t.namespace}`;
}
