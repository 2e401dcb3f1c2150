/**
 * Why a deployed model is not Ready, in words: the REST shape of a diagnosis (on
 * `GET /models/:name/status`, the fleet's NotReady reason, the CLI and the scaffolder's logs).
 * Computed by `diagnose` (../diagnosis) from the model's pods, their Events and log lines, and
 * the known signatures of its engine's profile.
 */

/** Where a known signature is looked for. */
export type SignatureWhere = 'log' | 'event' | 'condition' | 'container';

/** A known message matched in what Kubernetes or the engine said, with what it means and the fix. */
export type DiagnosisFinding = {
  /** The signature's id, e.g. `gated-repo`. */
  signature: string;
  where: SignatureWhere;
  /** Whose words matched, e.g. `log of pod qwen-abc container main (previous run)`. */
  subject: string;
  /** The matched line, message or reason. */
  text: string;
  meaning: string;
  fix: string;
  /** The list the signature comes from: an engine's profile file, or `kubernetes` for the common list. */
  source: string;
};

/** One container of a pod, as its status says. */
export type DiagnosedContainer = {
  name: string;
  /** An init container (the storage initializer of an InferenceService). */
  init: boolean;
  ready: boolean;
  state: 'waiting' | 'running' | 'terminated' | 'unknown';
  /** The waiting or terminated reason, e.g. ImagePullBackOff, CrashLoopBackOff, OOMKilled. */
  reason?: string;
  message?: string;
  exitCode?: number;
  restartCount: number;
  /** How the previous run ended, for a container that restarted. */
  lastTermination?: { reason?: string; exitCode?: number; message?: string };
};

/** One of the model's pods (the server's, or the weights download Job's). */
export type DiagnosedPod = {
  name: string;
  role: 'server' | 'download';
  /** Pending, Running, Succeeded, Failed, Unknown. */
  phase: string;
  ready: boolean;
  nodeName?: string;
  containers: DiagnosedContainer[];
};

/** An Event about one of the model's objects or pods. */
export type DiagnosedEvent = {
  /** Normal or Warning. */
  type: string;
  reason: string;
  message: string;
  /** `Kind/name` of the object the Event is about. */
  object: string;
  count: number;
  /** When it was last seen (ISO 8601), when the Event says. */
  lastSeen?: string;
};

/** The last lines of a container's log (or why they could not be read). */
export type DiagnosedLog = {
  pod: string;
  container: string;
  /** The log of the previous run (the container restarted). */
  previous: boolean;
  lines: string[];
  error?: string;
};

/** Why a model is not Ready at one cluster/namespace. */
export type Diagnosis = {
  cluster: string;
  namespace: string;
  /** One sentence: the most specific finding's meaning, else the state that blocks. */
  headline: string;
  /** Known signatures matched, most specific first (logs, events, conditions, container states). */
  findings: DiagnosisFinding[];
  pods: DiagnosedPod[];
  /** Newest first. */
  events: DiagnosedEvent[];
  logs: DiagnosedLog[];
  /** What could not be read (e.g. `cannot read pod logs on cluster X: RBAC (needs get on pods/log)`). */
  problems: string[];
};
