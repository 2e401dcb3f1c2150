/** One Kubernetes condition as KServe reports it. */
export interface ConditionSummary {
  type: string;
  status: 'True' | 'False' | 'Unknown' | string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/** What a user needs to know about a served model's object, in words. */
export interface KServeStatusSummary {
  kind: string;
  name: string;
  namespace?: string;
  /** true / false from the Ready condition; undefined when KServe has not reported yet. */
  ready: boolean | undefined;
  url?: string;
  conditions: ConditionSummary[];
  /** Plain-language explanation of what is wrong (empty when ready). */
  problems: string[];
}

const KEY_CONDITIONS: Record<string, string[]> = {
  LLMInferenceService: ['Ready', 'WorkloadsReady', 'RouterReady'],
  InferenceService: ['Ready', 'PredictorReady', 'IngressReady'],
};

const EXPLAIN: Record<string, string> = {
  WorkloadsReady:
    'the vLLM pods are not ready (image pull, scheduling, model download or start-up)',
  RouterReady:
    'the router (gateway route / scheduler) is not ready, so requests cannot reach the model',
  PredictorReady: 'the OpenVINO predictor pods are not ready',
  IngressReady: 'the ingress / route to the model is not ready',
};

/**
 * Reads the KServe conditions of an InferenceService or LLMInferenceService: Ready and the
 * conditions that explain it (WorkloadsReady / RouterReady, PredictorReady / IngressReady), the
 * URL, and `modelStatus.lastFailureInfo` — and says in words what is wrong when not ready.
 */
export function summarizeKServeStatus(
  object: Record<string, any>,
): KServeStatusSummary {
  const status = object?.status ?? {};
  const conditions: ConditionSummary[] = Array.isArray(status.conditions)
    ? status.conditions.map((c: any) => ({
        type: String(c.type),
        status: String(c.status),
        reason: c.reason,
        message: c.message,
        lastTransitionTime: c.lastTransitionTime,
      }))
    : [];
  const byType = new Map(conditions.map(c => [c.type, c]));
  const ready = byType.get('Ready');
  const url: string | undefined =
    status.url ?? status.address?.url ?? status.addresses?.[0]?.url;
  const problems: string[] = [];
  const kind = String(object?.kind ?? '');
  if (!ready) {
    problems.push(
      `KServe has not reported a Ready condition for this ${
        kind || 'object'
      } yet; the controller may still be reconciling it (or KServe is not installed on this cluster).`,
    );
  } else if (ready.status !== 'True') {
    for (const type of (KEY_CONDITIONS[kind] ?? []).slice(1)) {
      const c = byType.get(type);
      if (c && c.status !== 'True') {
        problems.push(
          `${type} is ${c.status}: ${EXPLAIN[type] ?? type}${
            c.reason
              ? ` (${c.reason}${c.message ? `: ${c.message}` : ''})`
              : c.message
              ? ` (${c.message})`
              : ''
          }.`,
        );
      }
    }
    const failure = status.modelStatus?.lastFailureInfo;
    if (failure?.reason || failure?.message) {
      problems.push(
        `The model failed to load: ${[failure.reason, failure.message]
          .filter(Boolean)
          .join(': ')}.`,
      );
    }
    const state = status.modelStatus?.states?.targetModelState;
    if (state && state !== 'Loaded' && !failure)
      problems.push(`The model is ${state}.`);
    if (problems.length === 0) {
      problems.push(
        `Ready is ${ready.status}${
          ready.reason
            ? ` (${ready.reason}${ready.message ? `: ${ready.message}` : ''})`
            : ''
        }.`,
      );
    }
  }
  return {
    kind,
    name: String(object?.metadata?.name ?? ''),
    namespace: object?.metadata?.namespace,
    ready: ready ? ready.status === 'True' : undefined,
    url,
    conditions,
    problems,
  };
}
