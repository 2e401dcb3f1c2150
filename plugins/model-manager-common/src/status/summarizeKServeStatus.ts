import type { StatusReading } from '../profile/types';

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

/**
 * Reads the KServe conditions of a model server object (an InferenceService, LLMInferenceService,
 * ...): Ready and the conditions its engine profile says explain it (`status.conditions`, e.g.
 * WorkloadsReady / RouterReady, PredictorReady / IngressReady, each explained by
 * `status.explain`), the URL, and `modelStatus.lastFailureInfo` — and says in words what is
 * wrong when not ready.
 */
export function summarizeKServeStatus(
  object: Record<string, any>,
  reading:
    | Pick<StatusReading, 'conditions' | 'explain' | 'refusals'>
    | undefined,
  routes: ReadonlyArray<Record<string, any>> = [],
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
    for (const type of reading?.conditions ?? []) {
      const c = byType.get(type);
      if (c && c.status !== 'True') {
        problems.push(
          `${type} is ${c.status}: ${reading?.explain[type] ?? type}${
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
  const refused = routeRefusals(routes, reading);
  problems.push(...refused);
  return {
    kind,
    name: String(object?.metadata?.name ?? ''),
    namespace: object?.metadata?.namespace,
    // Ready to clients: KServe's Ready, and no route object refused by its controller.
    ready: ready ? ready.status === 'True' && refused.length === 0 : undefined,
    url,
    conditions,
    problems,
  };
}

type Refusal = NonNullable<StatusReading['refusals']>[number];

const keyOf = (o: Record<string, any>) =>
  `${o?.kind}/${o?.metadata?.namespace ?? ''}/${o?.metadata?.name ?? ''}`;

const listOf = (v: unknown): any[] => (Array.isArray(v) ? v : []);

/**
 * What the controllers of the model's route objects refused, in words, by the profile's
 * `status.refusals` (Envoy Gateway's Backend: Accepted False; Envoy AI Gateway's
 * AIServiceBackend and AIGatewayRoute: a NotAccepted condition, which it writes with status
 * False; the HTTPRoute Envoy AI Gateway makes from the AIGatewayRoute: its Gateway's Accepted or
 * ResolvedRefs False, per parent). An object with no such condition (not judged yet, or accepted)
 * is no problem. A made object (`madeFrom`) counts only beside the model's object it is made
 * from (same name and namespace), so another controller's object of that kind is not judged.
 */
export function routeRefusals(
  routes: ReadonlyArray<Record<string, any>>,
  reading: Pick<StatusReading, 'refusals'> | undefined,
): string[] {
  const problems: string[] = [];
  const present = new Set(routes.map(keyOf));
  for (const route of routes) {
    const rules = (reading?.refusals ?? []).filter(
      r =>
        r.kind === route?.kind &&
        (r.madeFrom === undefined ||
          present.has(keyOf({ ...route, kind: r.madeFrom }))),
    );
    const name = route?.metadata?.name ?? '';
    for (const rule of rules) {
      const found = refusalOf(route, rule);
      if (!found) continue;
      const { condition: c, parent } = found;
      const why = [c.reason, c.message].filter(Boolean).join(': ');
      const made = rule.madeFrom
        ? ` (made by its controller from ${rule.madeFrom} ${name})`
        : '';
      const by = parent
        ? `by ${parentName(parent, route)}`
        : 'by its controller';
      problems.push(
        `Clients cannot reach the model: ${
          route.kind
        } ${name}${made} was refused ${by} (${rule.condition}${
          rule.status ? ` ${rule.status}` : ''
        }${why ? `, ${why}` : ''}).`,
      );
      break;
    }
  }
  return problems;
}

/** The condition refusing `route` by `rule`, and the parent that wrote it (per-parent status). */
function refusalOf(
  route: Record<string, any>,
  rule: Refusal,
):
  | { condition: Record<string, any>; parent?: Record<string, any> }
  | undefined {
  const matches = (x: any) =>
    x?.type === rule.condition &&
    (rule.status === undefined || x?.status === rule.status);
  if (!rule.perParent) {
    const condition = listOf(route?.status?.conditions).find(matches);
    return condition ? { condition } : undefined;
  }
  for (const parent of listOf(route?.status?.parents)) {
    const condition = listOf(parent?.conditions).find(matches);
    if (condition) return { condition, parent };
  }
  return undefined;
}

/**
 * A Gateway API parent as users name it: `Gateway default/envoy-ai-gateway-basic`, with its
 * listener when the route names one (parentRef's kind defaults to Gateway and its namespace to
 * the route's, Gateway API's ParentReference).
 */
function parentName(
  parent: Record<string, any>,
  route: Record<string, any>,
): string {
  const ref = parent?.parentRef ?? {};
  const ns = ref.namespace ?? route?.metadata?.namespace;
  return `${ref.kind ?? 'Gateway'} ${ns ? `${ns}/` : ''}${ref.name ?? ''}${
    ref.sectionName ? ` (listener ${ref.sectionName})` : ''
  }`;
}
