import {
  argRefusal,
  envValueRefusal,
} from '@model-manager/plugin-model-manager-common';
import { serializeError } from '@backstage/errors';
import type { NextFunction, Request, Response } from 'express';

/** Whether a request's query carries a value a request may not carry (a secret's value). */
function queryCarriesSecret(query: Request['query']): boolean {
  const list = (v: unknown) =>
    (v === undefined ? [] : Array.isArray(v) ? v : [v]).map(String);
  return (
    list(query.env).some(item => {
      const eq = item.indexOf('=');
      return eq > 0 && !!envValueRefusal(item.slice(0, eq), item.slice(eq + 1));
    }) || list(query.arg).some(arg => !!argRefusal(arg))
  );
}

/**
 * The error answer for a request whose query carried a secret's value (refused by the resolver):
 * Backstage's error middleware echoes `request.url`, query string included, in the answer, so
 * this one answers with the path only. The message never holds the value. (What a proxy or an
 * access log records of the URL is outside the plugin: the CLI and the frontend client refuse
 * such a value before sending it, envQueryParams.)
 */
export function redactRefusedQuery(
  err: Error,
  req: Request,
  res: Response,
  next: NextFunction,
) {
  if (res.headersSent || !queryCarriesSecret(req.query)) {
    next(err);
    return;
  }
  const error = serializeError(err);
  const statusCode = err.name === 'InputError' ? 400 : 500;
  res.status(statusCode).json({
    error: { name: error.name, message: error.message },
    request: { method: req.method, url: req.baseUrl + req.path },
    response: { statusCode },
  });
}
