/**
 * Whether a Gateway's listeners admit a route from a namespace, as Gateway API defines it
 * (gateway.networking.k8s.io/v1 Gateway `spec.listeners[].allowedRoutes.namespaces`: `from` is
 * `Same` when unset, the Gateway's own namespace only; `All`; or `Selector`, the namespaces whose
 * labels match `selector`, a metav1.LabelSelector: kubernetes-sigs/gateway-api apis/v1
 * gateway_types.go RouteNamespaces, FromNamespaces). A route no listener admits is not accepted
 * (its parent status: Accepted False, NotAllowedByListeners), so clients never reach the model.
 * Route kinds (`allowedRoutes.kinds`) are not checked: the route that attaches may be one a
 * controller makes from the rendered one (Envoy AI Gateway's HTTPRoute from an AIGatewayRoute).
 */

type Json = Record<string, any>;

interface Requirement {
  key?: unknown;
  operator?: unknown;
  values?: unknown;
}

/** A metav1.LabelSelector against labels (apimachinery's LabelSelectorAsSelector rules). */
export function labelSelectorMatches(
  selector: Json | undefined,
  labels: Record<string, string>,
): boolean {
  // An empty selector (no terms) matches every namespace.
  const matchLabels: Json = selector?.matchLabels ?? {};
  for (const [k, v] of Object.entries(matchLabels))
    if (labels[k] !== v) return false;
  const expressions: Requirement[] = Array.isArray(selector?.matchExpressions)
    ? selector!.matchExpressions
    : [];
  for (const e of expressions) {
    const key = String(e.key);
    const values = Array.isArray(e.values) ? e.values.map(String) : [];
    const has = Object.prototype.hasOwnProperty.call(labels, key);
    switch (e.operator) {
      case 'In':
        if (!has || !values.includes(labels[key])) return false;
        break;
      case 'NotIn':
        if (has && values.includes(labels[key])) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        // The API server refuses any other operator: such a Gateway admits nothing.
        return false;
    }
  }
  return true;
}

export type Admission =
  | { admitted: true; listener: string }
  | {
      admitted: false;
      /** Each listener and what it admits, in words. */
      listeners: string[];
    };

/**
 * Whether any listener of the Gateway admits routes from `namespace` (labels: that namespace's,
 * with the API server's `kubernetes.io/metadata.name`; undefined when they could not be read).
 * Undefined, no verdict, when the Gateway has no listeners to read, or when none admits the
 * route and a listener's Selector could not be judged for want of the labels.
 */
export function admitsRoutesFrom(
  gateway: Json,
  namespace: string,
  labels: Record<string, string> | undefined,
): Admission | undefined {
  const listeners: Json[] = Array.isArray(gateway?.spec?.listeners)
    ? gateway.spec.listeners
    : [];
  if (listeners.length === 0) return undefined;
  const gatewayNamespace = String(gateway.metadata?.namespace ?? '');
  const withName = {
    'kubernetes.io/metadata.name': namespace,
    ...labels,
  };
  const said: string[] = [];
  let undecided = false;
  for (const l of listeners) {
    const from = l?.allowedRoutes?.namespaces?.from ?? 'Same';
    const name = String(l?.name ?? '?');
    if (from === 'All') return { admitted: true, listener: name };
    if (from === 'Same') {
      if (namespace === gatewayNamespace)
        return { admitted: true, listener: name };
      said.push(
        `listener ${name} admits routes from its own namespace ${gatewayNamespace} only (allowedRoutes.namespaces.from: Same${
          l?.allowedRoutes?.namespaces?.from ? '' : ', the default'
        })`,
      );
      continue;
    }
    if (from === 'Selector') {
      const selector = l?.allowedRoutes?.namespaces?.selector;
      if (!labels) {
        undecided = true;
        continue;
      }
      if (labelSelectorMatches(selector, withName))
        return { admitted: true, listener: name };
      said.push(
        `listener ${name} admits routes from the namespaces its selector matches (${JSON.stringify(
          selector ?? {},
        )}), and namespace ${namespace}'s labels do not`,
      );
      continue;
    }
    said.push(`listener ${name} admits no namespace (from: ${String(from)})`);
  }
  return undecided ? undefined : { admitted: false, listeners: said };
}
