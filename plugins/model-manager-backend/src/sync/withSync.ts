import type { ModelStatusResponse } from '@model-manager/plugin-model-manager-common';
import type { FleetService } from '../fleet';

/**
 * The status answer with each target's `sync`, taken from the fleet's targets (the same
 * `syncState` computation `/fleet` and the rollout plan use), so the Serving tab, `/fleet` and the
 * plan give one answer. A fleet that cannot answer leaves `sync` out rather than failing the status.
 */
export async function withSync(
  status: ModelStatusResponse,
  model: string,
  fleet: Pick<FleetService, 'fleet'>,
): Promise<ModelStatusResponse> {
  let targets;
  try {
    targets = (await fleet.fleet({ model })).items;
  } catch {
    return status;
  }
  return {
    ...status,
    items: status.items.map(item => {
      const sync = targets.find(
        t => t.cluster === item.cluster && t.namespace === item.namespace,
      )?.sync;
      return sync ? { ...item, sync } : item;
    }),
  };
}
