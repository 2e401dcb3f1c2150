import type {
  AuthService,
  DiscoveryService,
  LoggerService,
} from '@backstage/backend-plugin-api';

/**
 * What a model-manager action needs from the backend it runs in: it calls the model-manager
 * backend (found through `discovery`) with the task initiator's credentials (`auth`).
 *
 * @public
 */
export interface ModelManagerActionOptions {
  discovery: DiscoveryService;
  auth: AuthService;
  /** The backend's logger: a failed task's full error, stack included, goes here (not to the task log). */
  logger?: LoggerService;
}

/**
 * The options of an action that can wait until what it applied is Ready.
 *
 * @public
 */
export interface ModelManagerWaitingActionOptions
  extends ModelManagerActionOptions {
  /** How often to ask for the model's status while waiting for Ready (default 5 s). */
  readyPollIntervalMs?: number;
}
