/**
 * Authentication (bearer tokens), impersonation and RBAC-style authorization,
 * with kube-apiserver's 401/403 answers.
 */
import http from 'node:http';
import { StatusError } from '../api/errors';
import { RbacRule, UserSpec } from '../types';
import { RequestInfo } from './requestInfo';

export interface UserInfo {
  name: string;
  groups: string[];
  rules: RbacRule[];
  canImpersonate: boolean;
}

export interface AuthResult {
  /** The authenticated user. */
  user: UserInfo;
  /** The user RBAC applies to (the impersonated one, if any). */
  effective: UserInfo;
  impersonated?: string;
}

const PUBLIC_PATHS = ['/version', '/healthz', '/livez', '/readyz'];

function anyOf(
  list: string[] | '*' | undefined,
  value: string,
  dflt: boolean,
): boolean {
  if (list === undefined) return dflt;
  if (list === '*') return true;
  return list.includes('*') || list.includes(value);
}

function resourceMatches(
  list: string[] | '*',
  resource: string,
  subresource: string | undefined,
): boolean {
  if (list === '*' || list.includes('*')) return true;
  if (!subresource) return list.includes(resource);
  return (
    list.includes(`${resource}/${subresource}`) ||
    list.includes(`*/${subresource}`) ||
    list.includes(`${resource}/*`)
  );
}

export class Authorizer {
  private readonly byToken: Map<string, UserSpec>;
  private readonly byName = new Map<string, RbacRule[]>();

  private constructor(
    users: Record<string, UserSpec>,
    impersonatable: Record<string, RbacRule[]>,
    private readonly anonymous: 'forbidden' | 'unauthenticated',
  ) {
    this.byToken = new Map(Object.entries(users));
    for (const [name, rules] of Object.entries(impersonatable))
      this.byName.set(name, rules);
    for (const u of Object.values(users))
      this.byName.set(u.name, u.rules ?? []);
  }

  static create(opts: {
    users: Record<string, UserSpec>;
    impersonatable?: Record<string, RbacRule[]>;
    anonymous: 'forbidden' | 'unauthenticated';
  }): Authorizer {
    return new Authorizer(
      opts.users,
      opts.impersonatable ?? {},
      opts.anonymous,
    );
  }

  /** Authenticates and applies impersonation headers; throws 401/403 Status errors. */
  authenticate(req: http.IncomingMessage): AuthResult {
    const header = req.headers.authorization;
    let user: UserInfo;
    if (header) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
      const spec = m ? this.byToken.get(m[1]) : undefined;
      if (!spec) throw StatusError.unauthorized();
      user = {
        name: spec.name,
        groups: [...(spec.groups ?? []), 'system:authenticated'],
        rules: spec.rules ?? [],
        canImpersonate: spec.canImpersonate ?? false,
      };
    } else if (this.anonymous === 'forbidden') {
      // Like a (Cluster)RoleBinding to system:anonymous: rules given for that name apply.
      user = {
        name: 'system:anonymous',
        groups: ['system:unauthenticated'],
        rules: this.byName.get('system:anonymous') ?? [],
        canImpersonate: false,
      };
    } else {
      throw StatusError.unauthorized();
    }
    const impersonateUser = req.headers['impersonate-user'];
    const rawGroups = req.headers['impersonate-group'];
    const groups = ([] as string[]).concat(rawGroups ?? []);
    if (impersonateUser === undefined) {
      if (groups.length > 0) {
        throw StatusError.internal(
          `requested [${groups
            .map(g => `{Group  ${g}}`)
            .join(' ')}] without impersonating a user`,
        );
      }
      return { user, effective: user };
    }
    const name = Array.isArray(impersonateUser)
      ? impersonateUser[0]
      : impersonateUser;
    if (!user.canImpersonate) {
      throw StatusError.forbidden(
        { group: '', resource: 'users' },
        name,
        `User "${user.name}" cannot impersonate resource "users" in API group "" at the cluster scope`,
      );
    }
    const effective: UserInfo = {
      name,
      groups: [
        ...groups,
        ...(name === 'system:anonymous' ? [] : ['system:authenticated']),
      ],
      rules: this.byName.get(name) ?? [],
      canImpersonate: false,
    };
    return { user, effective, impersonated: name };
  }

  allowed(user: UserInfo, info: RequestInfo): boolean {
    if (user.groups.includes('system:masters')) return true;
    if (info.type === 'nonResource') {
      if (PUBLIC_PATHS.includes(info.path)) return true;
      // system:discovery is bound to system:authenticated; a full wildcard rule is cluster-admin,
      // which also grants every non-resource URL.
      const clusterAdmin = user.rules.some(
        r =>
          r.verbs === '*' &&
          r.resources === '*' &&
          r.apiGroups === '*' &&
          r.namespaces === '*',
      );
      return user.groups.includes('system:authenticated') || clusterAdmin;
    }
    return user.rules.some(rule => {
      if (!anyOf(rule.verbs, info.verb, false)) return false;
      if (!anyOf(rule.apiGroups, info.group, true)) return false;
      if (!resourceMatches(rule.resources, info.resource, info.subresource))
        return false;
      if (rule.namespaces === '*' || rule.namespaces.includes('*')) return true;
      return !!info.namespace && rule.namespaces.includes(info.namespace);
    });
  }

  /** The 403 kube-apiserver's authorization filter returns for a denied request. */
  forbidden(user: UserInfo, info: RequestInfo): StatusError {
    if (info.type === 'nonResource') {
      return StatusError.forbidden(
        undefined,
        '',
        `User "${user.name}" cannot ${info.verb} path "${info.path}"`,
      );
    }
    const resource = info.subresource
      ? `${info.resource}/${info.subresource}`
      : info.resource;
    const where = info.namespace
      ? `in the namespace "${info.namespace}"`
      : 'at the cluster scope';
    return StatusError.forbidden(
      { group: info.group, resource: info.resource },
      info.name ?? '',
      `User "${user.name}" cannot ${info.verb} resource "${resource}" in API group "${info.group}" ${where}`,
    );
  }
}
