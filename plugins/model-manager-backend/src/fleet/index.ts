export { FleetService } from './FleetService';
export { LiveObjectCache } from './LiveObjectCache';
export type { ClusterRead } from './LiveObjectCache';
export { buildFleet, effectiveOverrides } from './buildFleet';
export { planRollout } from './planRollout';
export { managedKinds, isModelObject, isTransient } from './managedKinds';
export { FleetWatches } from './watch';
