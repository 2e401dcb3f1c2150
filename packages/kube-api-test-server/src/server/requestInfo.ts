/** Parses request paths the way kube-apiserver's RequestInfoFactory does. */

export interface ResourceRequest {
  type: 'resource';
  verb: string;
  group: string;
  version: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

export interface NonResourceRequest {
  type: 'nonResource';
  verb: string;
  path: string;
}

export type RequestInfo = ResourceRequest | NonResourceRequest;

const NAMESPACE_SUBRESOURCES = ['status', 'finalize'];

const VERBS: Record<string, string> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

function isWatch(query: URLSearchParams): boolean {
  const w = query.get('watch');
  return w === 'true' || w === '1';
}

export function parseRequestInfo(
  method: string,
  pathname: string,
  query: URLSearchParams,
): RequestInfo {
  const verb = VERBS[method.toUpperCase()] ?? method.toLowerCase();
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1];
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1];
    version = parts[2];
    rest = parts.slice(3);
  } else {
    return { type: 'nonResource', verb, path: pathname };
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1];
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.includes(rest[2]))
      rest = rest.slice(2);
  }
  const [resource, name, ...sub] = rest;
  let resolvedVerb = verb;
  if (!name) {
    if (verb === 'get') resolvedVerb = isWatch(query) ? 'watch' : 'list';
    if (verb === 'delete') resolvedVerb = 'deletecollection';
  }
  return {
    type: 'resource',
    verb: resolvedVerb,
    group,
    version,
    resource,
    name,
    namespace,
    subresource: sub.length > 0 ? sub.join('/') : undefined,
  };
}
