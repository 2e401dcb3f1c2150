import type { HttpAuthService } from '@backstage/backend-plugin-api';
import { InputError } from '@backstage/errors';
import {
  parseEnvSecret,
  type DeploymentFailedResponse,
  type DeploymentResult,
  type ServerOverrides,
} from '@model-manager/plugin-model-manager-common';
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { FailureKind } from '../kubernetes/types';
import type { Caller } from '../service';

const FAILURE_STATUS: Record<FailureKind, number> = {
  conflict: 409,
  invalid: 422,
  forbidden: 403,
  'not-found': 404,
  unavailable: 503,
};

/** `value` (a body or a query) checked by `schema`. @throws InputError naming each field wrong. */
export function parse<T extends z.ZodTypeAny>(
  schema: T,
  value: unknown,
  what: string,
): z.infer<T> {
  const result = schema.safeParse(value ?? {});
  if (!result.success)
    throw new InputError(`invalid ${what}: ${describeZodError(result.error)}`);
  return result.data;
}

/** The caller of a request, for the service: credentials of a user or a service, read on demand. */
export function callerOf(httpAuth: HttpAuthService, req: Request): Caller {
  return {
    request: req,
    credentials: () =>
      httpAuth.credentials(req, { allow: ['user', 'service'] }),
  };
}

/**
 * The answer of a cluster-changing operation: the result, or for a failed outcome the status of
 * its first failure with the per-object results.
 */
export function sendDeployment(res: Response, result: DeploymentResult) {
  if (result.ok) {
    res.json(result satisfies DeploymentResult);
    return;
  }
  res.status(FAILURE_STATUS[result.failure ?? 'unavailable']).json({
    error: {
      name: 'DeploymentFailedError',
      message: result.message ?? 'the deploy failed',
    },
    deployment: result,
  } satisfies DeploymentFailedResponse);
}

/** Turns a zod error into one message naming each field. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map(issue => {
      const path = issue.path.join('.');
      if (issue.code === 'unrecognized_keys')
        return `unknown field(s) ${issue.keys.map(k => `'${k}'`).join(', ')}${
          path ? ` in ${path}` : ''
        }`;
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/** Whether an If-None-Match header (`*`, or a list of tags, weak or strong) matches `etag`. */
export function matchesETag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some(tag => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/**
 * `?env=K=V&env=K2=V2&envSecret=HF_TOKEN=hf-token/token&arg=--x=1&serverVersion=0.24.0` ->
 * overrides (envSecret: a Secret reference, secret/key).
 */
export function overridesFromQuery(query: Request['query']): ServerOverrides {
  const list = (v: unknown) =>
    (v === undefined ? [] : Array.isArray(v) ? v : [v]).map(String);
  const overrides: ServerOverrides = {};
  if (query.serverVersion !== undefined)
    overrides.serverVersion = String(query.serverVersion);
  const env = list(query.env);
  if (env.length > 0) {
    overrides.env = {};
    for (const item of env) {
      const eq = item.indexOf('=');
      if (eq <= 0)
        throw new InputError(`invalid env '${item}': expected NAME=value`);
      overrides.env[item.slice(0, eq)] = item.slice(eq + 1);
    }
  }
  for (const item of list(query.envSecret)) {
    const parsed = parseEnvSecret(item);
    if ('problem' in parsed) throw new InputError(`invalid ${parsed.problem}`);
    overrides.env = { ...overrides.env, [parsed.name]: parsed.ref };
  }
  const args = list(query.arg);
  if (args.length > 0) overrides.args = args;
  return overrides;
}

/** The threshold of Backstage's `compression` middleware (compression 1.8: 1 KiB). */
const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * A JSON answer with its validator (a weak ETag): `Cache-Control: private, no-cache` lets the
 * browser keep it and ask again with `If-None-Match`, and an unchanged answer is then a 304 with
 * no body (express's `req.fresh`, RFC 9110 §13.1.2). The pages' `fetch` revalidates on its own.
 *
 * A client that takes gzip gets the answer's own gzip (`answer.gzip`, kept precompressed), with
 * `Content-Encoding` set so the root router's `compression` middleware leaves it as it is
 * ("already encoded"); small answers and clients that do not take gzip get the text, which that
 * middleware compresses as it does every answer.
 */
export function sendTaggedJson(
  req: Request,
  res: Response,
  answer: { etag: string; text: () => string; gzip: () => Buffer },
) {
  res.set('ETag', answer.etag);
  res.set('Cache-Control', 'private, no-cache');
  res.vary('Accept-Encoding');
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  res.type('application/json');
  const text = answer.text();
  if (
    text.length < COMPRESSION_THRESHOLD_BYTES ||
    req.acceptsEncodings('gzip') !== 'gzip'
  ) {
    res.send(text);
    return;
  }
  res.set('Content-Encoding', 'gzip').send(answer.gzip());
}
