/**
 * Schemas of what `GET /models/:name/status` says about a deployed model: the KServe status
 * summary, the endpoint and the weights download Job. The functions that compute them (../../../status)
 * keep their own types; the checks at the end hold these schemas to them.
 */
import { z } from 'zod';
import type {
  JobProgress,
  KServeStatusSummary,
  ModelEndpoint,
} from '../../../status';
import type { Describes } from './common';

/** One Kubernetes condition as KServe reports it. */
export const conditionSummarySchema = z.object({
  type: z.string(),
  status: z.string(),
  reason: z.string().optional(),
  message: z.string().optional(),
  lastTransitionTime: z.string().optional(),
});

/** What a user needs to know about a served model's object, in words (summarizeKServeStatus). */
export const kserveStatusSummarySchema = z.object({
  kind: z.string(),
  name: z.string(),
  namespace: z.string().optional(),
  /** true / false from the Ready condition; absent when KServe has not reported yet. */
  ready: z.boolean().optional(),
  url: z.string().optional(),
  conditions: z.array(conditionSummarySchema),
  /** Plain-language explanation of what is wrong (empty when ready). */
  problems: z.array(z.string()),
});

/** The URL clients call a deployed model at, and where it came from (selectEndpoint). */
export const modelEndpointSchema = z.object({
  source: z.enum(['status-url', 'status-addresses', 'gateway', 'none']),
  /** What an OpenAI client takes as `base_url`; absent when `source` is `none`. */
  baseUrl: z.string().optional(),
  message: z.string(),
  /** Routed by the AI gateway, but `baseUrl` reaches the engine directly (no gateway configured). */
  bypassesGateway: z.boolean().optional(),
});

/** Where a batch/v1 Job (the weights download) is, in the words a person needs (summarizeJob). */
export const jobProgressSchema = z.object({
  name: z.string(),
  namespace: z.string().optional(),
  phase: z.enum(['pending', 'running', 'failed', 'complete']),
  reason: z.string().optional(),
  message: z.string(),
  failedPods: z.number().int(),
  startTime: z.string().optional(),
  completionTime: z.string().optional(),
});

/** The status functions return what the schemas describe. */
export const STATUS_MATCHES_THE_SUMMARIES: [
  Describes<z.infer<typeof kserveStatusSummarySchema>, KServeStatusSummary>,
  Describes<z.infer<typeof modelEndpointSchema>, ModelEndpoint>,
  Describes<z.infer<typeof jobProgressSchema>, JobProgress>,
] = [true, true, true];
