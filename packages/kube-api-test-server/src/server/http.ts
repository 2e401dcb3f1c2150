/** Small HTTP helpers: body reading and JSON/Status responses. */
import crypto from 'node:crypto';
import http from 'node:http';
import { StatusError } from '../api/errors';

const FLOW_SCHEMA_UID = crypto.randomUUID();
const PRIORITY_LEVEL_UID = crypto.randomUUID();

export function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function baseHeaders(): Record<string, string> {
  return {
    'Audit-Id': crypto.randomUUID(),
    'Cache-Control': 'no-cache, private',
    'Content-Type': 'application/json',
    'X-Kubernetes-Pf-Flowschema-Uid': FLOW_SCHEMA_UID,
    'X-Kubernetes-Pf-Prioritylevel-Uid': PRIORITY_LEVEL_UID,
  };
}

export function sendJson(
  res: http.ServerResponse,
  code: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(code, {
    ...baseHeaders(),
    ...headers,
    'Content-Length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

export function sendError(
  res: http.ServerResponse,
  err: StatusError,
  headers: Record<string, string> = {},
): void {
  sendJson(res, err.code, err.body, { ...err.headers, ...headers });
}
