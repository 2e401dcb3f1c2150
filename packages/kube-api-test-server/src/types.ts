/** Public types of the Kubernetes API test double. */

/** One RBAC rule: what a user may do, where. `'*'` means any. */
export interface RbacRule {
  /** Namespaces the rule applies in; `'*'` also grants cluster-scoped resources and all-namespace lists. */
  namespaces: string[] | '*';
  verbs: string[] | '*';
  /** Plural resource names; subresources are `inferenceservices/status` (or `*` / `*\/status`). */
  resources: string[] | '*';
  /** API groups (`''` is the core group); default `'*'`. */
  apiGroups?: string[] | '*';
}

export interface UserSpec {
  name: string;
  groups?: string[];
  rules?: RbacRule[];
  /** May send `Impersonate-User` / `Impersonate-Group`. */
  canImpersonate?: boolean;
}

export interface KubeApiTestServerOptions {
  /**
   * Directory searched recursively for CRD `*.yaml` files, or several (e.g. only
   * the CRD sets a recorded cluster had installed).
   */
  crdDir?: string | string[];
  /** Users keyed by bearer token. Defaults to {@link DEFAULT_USERS}. */
  users?: Record<string, UserSpec>;
  /**
   * Rules of users that can only be reached through impersonation, keyed by
   * user name. Users listed in `users` are found by name as well.
   */
  impersonatable?: Record<string, RbacRule[]>;
  /**
   * Requests without a bearer token: `'unauthenticated'` (default) answers
   * 401; `'forbidden'` authenticates them as `system:anonymous` without
   * permissions, so resource requests get 403 (as on the recorded cluster).
   */
  anonymous?: 'forbidden' | 'unauthenticated';
  /** Namespaces that exist at start. Default `['default']`. */
  namespaces?: string[];
  /** Port to listen on (127.0.0.1). Default 0 (any free port). */
  port?: number;
  /**
   * The server's clock (creationTimestamp, managedFields times, deletionTimestamp).
   * Default `() => new Date()`. Lets tests control time without sleeping.
   */
  clock?: () => Date;
}

export interface FaultMatch {
  /** HTTP method, case-insensitive. */
  method?: string;
  /** Substring of the request URL (path and query). */
  pathIncludes?: string;
}

interface FaultBase {
  match?: FaultMatch;
  /** How many matching requests the fault affects. Default 1. */
  times?: number;
}

export type FaultSpec =
  | (FaultBase & {
      kind: 'status';
      code: 500 | 503 | 429 | 409;
      retryAfterSeconds?: number;
    })
  | (FaultBase & { kind: 'latency'; ms: number })
  | (FaultBase & { kind: 'drop' })
  | { kind: 'down' };

export interface RequestRecord {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The authenticated user (`system:anonymous` for anonymous requests); undefined when authentication failed. */
  user?: string;
  impersonatedUser?: string;
  /** The HTTP status answered, once the answer is complete (a watch's when it ends). */
  status?: number;
}
