/** What a preflight reads from a cluster, and what its checks take. */
import type {
  ControllerGateway,
  ControllerTls,
  GatewayClassRequirement,
  GatewayConfigRequirement,
  PreflightCheck,
  RenderedObject,
  ResolvedServer,
} from '@model-manager/plugin-model-manager-common';

export type { PreflightCheck };

/** One GET's answer: the JSON body, `null` for a 404, or why it could not be read. */
export type Read =
  | { ok: true; body: Record<string, any> | null }
  | {
      ok: false;
      /** The HTTP status (absent: the cluster could not be reached). */
      status?: number;
      message: string;
    };

/** GETs against one cluster, each path read once per session (see `PreflightReader.session`). */
export interface ClusterReads {
  get(cluster: string, path: string, accept?: 'metadata'): Promise<Read>;
}

/** What the checks of one target take: the target, the model as rendered, and the reads. */
export interface TargetFacts {
  cluster: string;
  namespace: string;
  server: ResolvedServer;
  objects: RenderedObject[];
  /** Every path read for this target, with its answer. */
  reads: Map<string, Read>;
  /** The Gateway the engine's controller attaches the model's route to, per its profile. */
  controllerGateway?: ControllerGateway;
  /** The kinds the engine's controller creates for the model by itself, for its routing, per its profile. */
  controllerKinds?: ReadonlyArray<{
    apiVersion: string;
    kind: string;
    routing: string;
  }>;
  /** The controller's switch that would make the model's workload HTTPS, for its routing, per its profile. */
  controllerTls?: ControllerTls & { routing: string };
  /** What the config of the controller serving the routes' objects must say, per its profile. */
  gatewayConfig?: ReadonlyArray<GatewayConfigRequirement & { routing: string }>;
  /** The controller that must serve the class of the routes' Gateway, per its profile. */
  gatewayClass?: GatewayClassRequirement & { routing: string };
}

/** A pure check over what was read; undefined when it does not apply to the target. */
export type Check = (facts: TargetFacts) => PreflightCheck | undefined;
