import type { BackstageCredentials } from '@backstage/backend-plugin-api';
import type { Request } from 'express';

/**
 * Who asks for an operation, as the router hands it to the service. The credentials are read when
 * the operation needs them, after its input checked out: a request naming an unknown model or
 * cluster is refused before authentication, and never reaches the audit log.
 */
export interface Caller {
  /** The HTTP request, named by audit events. */
  request: Request;
  /** The caller's credentials (a user or a service). */
  credentials(): Promise<BackstageCredentials>;
}

/** Who the caller is, in the words history, audit and the API server read. */
export interface Identity {
  credentials: BackstageCredentials;
  /** The user's entity ref, or `service:<subject>` (recorded in history and audit events). */
  actor: string;
  /** Impersonate-User value, when impersonation is on and the caller is a user. */
  impersonateUser?: string;
}

type Principal = { type: string; userEntityRef?: string; subject?: string };

/** The caller's identity; `impersonate`: send Impersonate-User for users (`modelManager.kubernetes.impersonateUser`). */
export async function identify(
  caller: Caller,
  impersonate: boolean,
): Promise<Identity> {
  const credentials = await caller.credentials();
  const p = credentials.principal as Principal;
  const actor =
    p.type === 'user' ? p.userEntityRef! : `service:${p.subject ?? 'unknown'}`;
  return {
    credentials,
    actor,
    impersonateUser: impersonate && p.type === 'user' ? actor : undefined,
  };
}
