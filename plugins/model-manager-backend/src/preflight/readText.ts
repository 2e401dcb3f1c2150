import type { Read } from './types';

/**
 * The words for a read that failed, naming the verb and the resource the service account needs:
 * `cannot list nodes on cluster prod: RBAC (needs list on nodes)`.
 */
export function unreadable(
  read: Extract<Read, { ok: false }>,
  cluster: string,
  verb: string,
  resource: string,
): { message: string; fix: string } {
  if (read.status === 401) {
    return {
      message: `cannot ${verb} ${resource} on cluster ${cluster}: the cluster refused the portal's credentials (401)`,
      fix: "check the cluster's service account token in the portal's kubernetes config",
    };
  }
  if (read.status === 403) {
    return {
      message: `cannot ${verb} ${resource} on cluster ${cluster}: RBAC (needs ${verb} on ${resource})`,
      fix: `grant the portal's service account (or the impersonated user) ${verb} on ${resource}, or check this by hand`,
    };
  }
  return {
    message: `cannot ${verb} ${resource} on cluster ${cluster}: ${read.message}`,
    fix: 'try again; if it persists, check the cluster is reachable from the portal',
  };
}

/** The items of a list read (empty for a 404). */
export function itemsOf(read: Read & { ok: true }): Array<Record<string, any>> {
  return Array.isArray(read.body?.items) ? read.body!.items : [];
}
