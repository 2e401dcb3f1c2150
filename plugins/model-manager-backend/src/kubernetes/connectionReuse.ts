import * as http from 'node:http';
import * as https from 'node:https';
import type { RequestContext } from '@kubernetes/client-node';

/** The TLS settings of an agent that decide whether a pooled connection may serve a request. */
const TLS_KEYS = [
  'ca',
  'cert',
  'key',
  'pfx',
  'passphrase',
  'rejectUnauthorized',
  'servername',
] as const;

const fingerprintPart = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (Array.isArray(value)) return value.map(fingerprintPart).join('|');
  return String(value);
};

/**
 * Connection reuse for one cluster client (one per cluster and impersonated user).
 *
 * `@kubernetes/client-node` 1.4.0 builds a new `http.Agent` / `https.Agent` for every request
 * (`KubeConfig.applySecurityAuthentication` calls `this.createAgent(cluster, agentOptions)`, see
 * dist/config.js), and Node agents do not keep connections alive by default, so each request
 * opens a TCP connection (and against a real API server, a TLS handshake) and closes it. kubectl
 * (Go's net/http) keeps its connections. `reuse` swaps the per-request agent for one pooled,
 * keep-alive agent with the same TLS settings: credentials that rotate (an exec plugin's client
 * certificate) give other settings, hence a new pool. Proxy agents (a cluster with `proxyUrl`)
 * are left as they are.
 */
export class ConnectionPool {
  private current?: { fingerprint: string; agent: http.Agent };

  reuse(context: RequestContext): void {
    const agent = context.getAgent();
    if (!agent) return;
    const isHttps = agent.constructor === https.Agent;
    if (!isHttps && agent.constructor !== http.Agent) return;
    const options = (agent as http.Agent & { options: Record<string, unknown> })
      .options;
    const fingerprint = [
      isHttps ? 'https' : 'http',
      ...TLS_KEYS.map(k => fingerprintPart(options[k])),
    ].join('\u0000');
    if (this.current?.fingerprint !== fingerprint) {
      // The previous pool's idle connections close at the server's idle timeout.
      const pooled = {
        ...options,
        keepAlive: true,
        scheduling: 'lifo' as const,
      };
      this.current = {
        fingerprint,
        agent: isHttps ? new https.Agent(pooled) : new http.Agent(pooled),
      };
    }
    context.setAgent(this.current.agent);
  }
}
