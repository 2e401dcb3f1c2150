import { CustomErrorBase } from '@backstage/errors';
import type { DeploymentResult } from './types';

/**
 * The cluster refused a deploy or undeploy (409, 422, 403, 404 or 503 with a `deployment` body).
 * The message is the backend's: it names the failed object and the objects applied and not.
 */
export class DeploymentFailedError extends CustomErrorBase {
  name = 'DeploymentFailedError' as const;
  /** The per-object results the backend sent along. */
  readonly deployment: DeploymentResult;

  constructor(message: string, deployment: DeploymentResult) {
    super(message);
    this.deployment = deployment;
  }
}
