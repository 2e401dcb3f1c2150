import type { DeploymentRecord } from '@model-manager/plugin-model-manager-common';

export type {
  DeploymentAction,
  DeploymentHistoryItem,
  DeploymentRecord,
} from '@model-manager/plugin-model-manager-common';

export type DeploymentOutcome = DeploymentRecord['outcome'];

/** What a caller records; the id, the per-model revision and the time are given by the history. */
export type NewDeploymentRecord = Omit<
  DeploymentRecord,
  'id' | 'revision' | 'createdAt'
>;
