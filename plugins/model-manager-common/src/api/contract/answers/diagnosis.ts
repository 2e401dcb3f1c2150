/**
 * Why a deployed model is not Ready, in words: the REST shape of a diagnosis (on
 * `GET /models/:name/status`, the fleet's NotReady reason, the CLI and the scaffolder's logs).
 * Computed by `diagnose` (../../../diagnosis) from the model's pods, their Events and log lines,
 * and the known signatures of its engine's profile.
 */
import { z } from 'zod';

/** Where a known signature is looked for. */
export const signatureWhereSchema = z.enum([
  'log',
  'event',
  'condition',
  'container',
]);

/** A known message matched in what Kubernetes or the engine said, with what it means and the fix. */
export const diagnosisFindingSchema = z.object({
  /** The signature's id, e.g. `gated-repo`. */
  signature: z.string(),
  where: signatureWhereSchema,
  /** Whose words matched, e.g. `log of pod qwen-abc container main (previous run)`. */
  subject: z.string(),
  /** The matched line, message or reason. */
  text: z.string(),
  meaning: z.string(),
  fix: z.string(),
  /** The list the signature comes from: an engine's profile file, or `kubernetes` for the common list. */
  source: z.string(),
});

/** One container of a pod, as its status says. */
export const diagnosedContainerSchema = z.object({
  name: z.string(),
  /** An init container (the storage initializer of an InferenceService). */
  init: z.boolean(),
  ready: z.boolean(),
  state: z.enum(['waiting', 'running', 'terminated', 'unknown']),
  /** The waiting or terminated reason, e.g. ImagePullBackOff, CrashLoopBackOff, OOMKilled. */
  reason: z.string().optional(),
  message: z.string().optional(),
  exitCode: z.number().int().optional(),
  restartCount: z.number().int(),
  /** How the previous run ended, for a container that restarted. */
  lastTermination: z
    .object({
      reason: z.string().optional(),
      exitCode: z.number().int().optional(),
      message: z.string().optional(),
    })
    .optional(),
});

/** One of the model's pods (the server's, or the weights download Job's). */
export const diagnosedPodSchema = z.object({
  name: z.string(),
  role: z.enum(['server', 'download']),
  /** Pending, Running, Succeeded, Failed, Unknown. */
  phase: z.string(),
  ready: z.boolean(),
  nodeName: z.string().optional(),
  containers: z.array(diagnosedContainerSchema),
});

/** An Event about one of the model's objects or pods. */
export const diagnosedEventSchema = z.object({
  /** Normal or Warning. */
  type: z.string(),
  reason: z.string(),
  message: z.string(),
  /** `Kind/name` of the object the Event is about. */
  object: z.string(),
  count: z.number().int(),
  /** When it was last seen (ISO 8601), when the Event says. */
  lastSeen: z.string().optional(),
});

/** The last lines of a container's log (or why they could not be read). */
export const diagnosedLogSchema = z.object({
  pod: z.string(),
  container: z.string(),
  /** The log of the previous run (the container restarted). */
  previous: z.boolean(),
  lines: z.array(z.string()),
  error: z.string().optional(),
});

/** Why a model is not Ready at one cluster/namespace. */
export const diagnosisSchema = z.object({
  cluster: z.string(),
  namespace: z.string(),
  /** One sentence: the most specific finding's meaning, else the state that blocks. */
  headline: z.string(),
  /** Known signatures matched, most specific first (logs, events, conditions, container states). */
  findings: z.array(diagnosisFindingSchema),
  pods: z.array(diagnosedPodSchema),
  /** Newest first. */
  events: z.array(diagnosedEventSchema),
  logs: z.array(diagnosedLogSchema),
  /** What could not be read (e.g. `cannot read pod logs on cluster X: RBAC (needs get on pods/log)`). */
  problems: z.array(z.string()),
});
