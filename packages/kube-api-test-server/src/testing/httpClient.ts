/** A tiny HTTP client for tests (jest may block global fetch; node:http to 127.0.0.1 always works). */
import http from 'node:http';
import https from 'node:https';

export interface TestResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Parsed JSON body (undefined when not JSON). */
  json: any;
}

export interface TestRequest {
  method?: string;
  path: string;
  token?: string;
  headers?: Record<string, string>;
  body?: string | object;
  contentType?: string;
  /** PEM certificate authority for an `https:` URL (the real API server of `KubeEnvtest`). */
  ca?: string;
}

export function request(
  baseUrl: string,
  req: TestRequest,
): Promise<TestResponse> {
  const url = new URL(req.path, baseUrl);
  const headers: Record<string, string> = { ...req.headers };
  if (req.token) headers.Authorization = `Bearer ${req.token}`;
  let payload: string | undefined;
  if (req.body !== undefined) {
    payload =
      typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
    headers['Content-Type'] = req.contentType ?? 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const options = { method: req.method ?? 'GET', headers, agent: false };
    const send = (cb: (res: http.IncomingMessage) => void) =>
      url.protocol === 'https:'
        ? https.request(url, { ...options, ca: req.ca }, cb)
        : http.request(url, options, cb);
    const r = send(res => {
      const chunks: Buffer[] = [];
      res.on('data', c => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: any;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text,
          json,
        });
      });
      res.on('error', reject);
    });
    r.on('error', reject);
    if (payload !== undefined) r.write(payload);
    r.end();
  });
}

/** Binds {@link request} to a server URL and default token. */
export function clientFor(baseUrl: string, token?: string, ca?: string) {
  return (req: TestRequest) => request(baseUrl, { token, ca, ...req });
}
