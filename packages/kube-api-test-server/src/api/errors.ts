/**
 * `Status` error bodies shaped like the ones kube-apiserver returns
 * (k8s.io/apimachinery/pkg/api/errors).
 */
import {
  FieldError,
  fieldErrorBody,
  fieldErrorString,
  fieldErrorReason,
} from './fieldErrors';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code?: number;
}

export interface GroupResource {
  group: string;
  resource: string;
}

export interface GroupKind {
  group: string;
  kind: string;
}

export function groupResourceString(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

export function groupKindString(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

/** Keeps the key order of Go's StatusDetails and drops empty fields. */
function cleanDetails(d: StatusDetails): StatusDetails {
  const out: StatusDetails = {};
  if (d.name) out.name = d.name;
  if (d.group) out.group = d.group;
  if (d.kind) out.kind = d.kind;
  if (d.uid) out.uid = d.uid;
  if (d.causes && d.causes.length > 0) out.causes = d.causes;
  if (d.retryAfterSeconds) out.retryAfterSeconds = d.retryAfterSeconds;
  return out;
}

export function statusBody(opts: {
  code: number;
  message: string;
  reason?: string;
  details?: StatusDetails;
}): StatusBody {
  const body: StatusBody = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: opts.message,
  };
  if (opts.reason) body.reason = opts.reason;
  if (opts.details) body.details = cleanDetails(opts.details);
  body.code = opts.code;
  return body;
}

/** An error that the HTTP layer turns into a `Status` response. */
export class StatusError extends Error {
  readonly body: StatusBody;
  readonly headers: Record<string, string>;

  constructor(body: StatusBody, headers: Record<string, string> = {}) {
    super(body.message ?? body.reason ?? 'error');
    this.name = 'StatusError';
    this.body = body;
    this.headers = headers;
  }

  get code(): number {
    return this.body.code ?? 500;
  }

  static of(opts: {
    code: number;
    message: string;
    reason?: string;
    details?: StatusDetails;
  }): StatusError {
    return new StatusError(statusBody(opts));
  }

  static notFound(gr: GroupResource, name: string): StatusError {
    return StatusError.of({
      code: 404,
      reason: 'NotFound',
      message: `${groupResourceString(gr)} "${name}" not found`,
      details: { name, group: gr.group, kind: gr.resource },
    });
  }

  /** The answer for paths and resources the server does not serve. */
  static notFoundPath(): StatusError {
    const body = statusBody({
      code: 404,
      reason: 'NotFound',
      message: 'the server could not find the requested resource',
    });
    body.details = {};
    return new StatusError(body);
  }

  static alreadyExists(gr: GroupResource, name: string): StatusError {
    return StatusError.of({
      code: 409,
      reason: 'AlreadyExists',
      message: `${groupResourceString(gr)} "${name}" already exists`,
      details: { name, group: gr.group, kind: gr.resource },
    });
  }

  static conflict(
    gr: GroupResource,
    name: string,
    detail: string,
  ): StatusError {
    return StatusError.of({
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on ${groupResourceString(
        gr,
      )} "${name}": ${detail}`,
      details: { name, group: gr.group, kind: gr.resource },
    });
  }

  static modified(gr: GroupResource, name: string): StatusError {
    return StatusError.conflict(
      gr,
      name,
      'the object has been modified; please apply your changes to the latest version and try again',
    );
  }

  static forbidden(
    gr: GroupResource | undefined,
    name: string,
    reason: string,
  ): StatusError {
    let message: string;
    if (!gr || !gr.resource) message = `forbidden: ${reason}`;
    else if (!name)
      message = `${groupResourceString(gr)} is forbidden: ${reason}`;
    else
      message = `${groupResourceString(gr)} "${name}" is forbidden: ${reason}`;
    const body = statusBody({
      code: 403,
      reason: 'Forbidden',
      message,
      details: { name, group: gr?.group, kind: gr?.resource },
    });
    return new StatusError(body, { 'X-Content-Type-Options': 'nosniff' });
  }

  static unauthorized(): StatusError {
    return StatusError.of({
      code: 401,
      reason: 'Unauthorized',
      message: 'Unauthorized',
    });
  }

  static badRequest(message: string): StatusError {
    return StatusError.of({ code: 400, reason: 'BadRequest', message });
  }

  static methodNotAllowed(): StatusError {
    const body = statusBody({
      code: 405,
      reason: 'MethodNotAllowed',
      message:
        'the server does not allow this method on the requested resource',
    });
    body.details = {};
    return new StatusError(body);
  }

  static unsupportedMediaType(
    contentType: string,
    accepted: string[],
  ): StatusError {
    return StatusError.of({
      code: 415,
      reason: 'UnsupportedMediaType',
      message: `the body of the request was in an unknown format - accepted media types include: ${accepted.join(
        ', ',
      )}`,
      details: contentType ? {} : undefined,
    });
  }

  static invalid(
    gk: GroupKind,
    name: string,
    errors: FieldError[],
  ): StatusError {
    const messages: string[] = [];
    for (const e of errors) {
      const s = fieldErrorString(e);
      if (!messages.includes(s)) messages.push(s);
    }
    const aggregate =
      messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`;
    return StatusError.of({
      code: 422,
      reason: 'Invalid',
      message: `${groupKindString(gk)} "${name}" is invalid: ${aggregate}`,
      details: {
        name,
        group: gk.group,
        kind: gk.kind,
        causes: errors.map(e => ({
          reason: fieldErrorReason(e),
          message: fieldErrorBody(e),
          field: e.field,
        })),
      },
    });
  }

  static internal(message: string): StatusError {
    return StatusError.of({
      code: 500,
      reason: 'InternalError',
      message: `Internal error occurred: ${message}`,
      details: { causes: [{ message }] },
    });
  }

  /** A 500 without reason, as returned for errors the server does not classify. */
  static unclassified(message: string): StatusError {
    return StatusError.of({ code: 500, message });
  }

  static gone(message: string): StatusError {
    return StatusError.of({ code: 410, reason: 'Expired', message });
  }

  static tooManyRequests(retryAfterSeconds: number): StatusError {
    const body = statusBody({
      code: 429,
      reason: 'TooManyRequests',
      message: 'Too many requests, please try again later.',
      details: { retryAfterSeconds },
    });
    return new StatusError(body, { 'Retry-After': String(retryAfterSeconds) });
  }

  static serviceUnavailable(retryAfterSeconds?: number): StatusError {
    const body = statusBody({
      code: 503,
      reason: 'ServiceUnavailable',
      message: 'the server is currently unable to handle the request',
      details: retryAfterSeconds ? { retryAfterSeconds } : undefined,
    });
    return new StatusError(
      body,
      retryAfterSeconds ? { 'Retry-After': String(retryAfterSeconds) } : {},
    );
  }
}
