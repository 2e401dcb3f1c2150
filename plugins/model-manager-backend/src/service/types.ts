import type {
  Catalog,
  DeployTarget,
  DeploymentResult,
  ModelSummary,
  RenderedObject,
  ServerOverrides,
} from '@model-manager/plugin-model-manager-common';
import type { FleetService } from '../fleet';
import type { DeploymentHistory } from '../history';
import type { ClusterRegistry, ServerSideApplier } from '../kubernetes';
import type { PreflightService } from '../preflight';
import type { ActionGate } from './access';

export type { DeploymentResult, DeployTarget };

/** What the service tells the fleet, and reads from it (absent: a service without a fleet). */
export type FleetLink = Pick<FleetService, 'changed'> &
  Partial<Pick<FleetService, 'lastSeen' | 'fleet' | 'liveObjects' | 'watched'>>;

/** How a deploy applies: the target, the overrides it records, and who asks. */
export interface DeployOptions extends DeployTarget {
  overrides: ServerOverrides;
  dryRun: boolean;
  force: boolean;
  /** Entity ref of the user asking (recorded in history). */
  actor: string;
  /** Impersonate-User value, when impersonation is on. */
  impersonateUser?: string;
  /** Set by a rollout: recorded as action `rollout`. */
  rollout?: { runtime: string; version?: string };
  /** The rollout (scaffolder task id) this deploy belongs to. */
  rolloutId?: string;
  /** What the caller last saw of an object (see `ApplyRequest.lastSeen`). */
  lastSeen?: (object: RenderedObject) => Record<string, any> | null | undefined;
  /** Apply even though a preflight check failed (recorded in history). */
  skipPreflight?: boolean;
}

/** What every use case of the service shares: the served catalog, the checks, the cluster access. */
export interface UseCaseContext {
  /** The last good catalog. @throws ServiceUnavailableError when none ever loaded. */
  catalog(): Catalog;
  /** @throws NotFoundError for a model not in the catalog. */
  getModel(name: string): ModelSummary;
  /** @throws for an unknown cluster or a namespace it does not allow. */
  checkTarget(target: DeployTarget): void;
  /** The permission checks and audit events. @throws when the service was created without them. */
  gate(): ActionGate;
  clusters: ClusterRegistry;
  applier: ServerSideApplier;
  history: DeploymentHistory;
  fleet?: FleetLink;
  preflight?: PreflightService;
}
