import type { RenderedObject, ServerOverrides } from '@model-manager/plugin-model-manager-common';
import type { ObjectResult } from '../kubernetes/types';

export type DeploymentAction = 'deploy' | 'dry-run' | 'rollback' | 'undeploy';
export type DeploymentOutcome = 'succeeded' | 'failed' | 'denied';

/** One recorded deploy, dry-run, rollback or undeploy. */
export interface DeploymentRecord {
  revision: number;
  model: string;
  cluster: string;
  namespace: string;
  action: DeploymentAction;
  outcome: DeploymentOutcome;
  /** Entity ref of the user who asked, e.g. `user:default/guest`. */
  actor: string;
  serverVersion?: string;
  overrides: ServerOverrides;
  manifests: RenderedObject[];
  results: ObjectResult[];
  message?: string;
  rollbackOf?: number;
  createdAt: string;
}

export type NewDeploymentRecord = Omit<DeploymentRecord, 'revision' | 'createdAt'>;
