import { InputError } from '@backstage/errors';
import type { SecretKeyRef } from '../schema/secretRef';
import { envValueRefusal } from './requestSecrets';
import type { ServerOverrides } from './types';

/**
 * The request syntax of a Secret reference where a request is text (the CLI's `--env-secret`,
 * the query parameter `envSecret`): `NAME=secret/key`, e.g. `HF_TOKEN=hf-token/token`. A Secret's
 * name and its keys cannot hold `/`, so the first `/` splits them. Returns the variable and its
 * reference, or a message saying what is wrong (the name and key themselves are checked with the
 * rest of the request, by validateOverrides).
 */
export function parseEnvSecret(
  item: string,
): { name: string; ref: SecretKeyRef } | { problem: string } {
  const eq = item.indexOf('=');
  const slash = item.indexOf('/', eq + 1);
  if (eq <= 0 || slash <= eq + 1 || slash === item.length - 1) {
    return {
      problem: `env-secret '${item.slice(
        0,
        80,
      )}': expected NAME=secret/key, e.g. HF_TOKEN=hf-token/token (the Secret hf-token's key token)`,
    };
  }
  return {
    name: item.slice(0, eq),
    ref: {
      secretKeyRef: {
        name: item.slice(eq + 1, slash),
        key: item.slice(slash + 1),
      },
    },
  };
}

/**
 * A request's env as query parameters: `env=NAME=value` and, for Secret references,
 * `envSecret=NAME=secret/key` (removals with null are not expressible in a query and are left out).
 * A value a request may not carry (a secret's value, requestSecrets.ts) throws before it is put in
 * a URL, which proxies and access logs record.
 */
export function envQueryParams(
  env: ServerOverrides['env'],
): Array<['env' | 'envSecret', string]> {
  const params: Array<['env' | 'envSecret', string]> = [];
  for (const [name, value] of Object.entries(env ?? {})) {
    if (value === null) continue;
    if (typeof value === 'string') {
      const refusal = envValueRefusal(name, value);
      if (refusal) throw new InputError(`env.${name}: ${refusal}`);
      params.push(['env', `${name}=${value}`]);
    } else
      params.push([
        'envSecret',
        `${name}=${value.secretKeyRef.name}/${value.secretKeyRef.key}`,
      ]);
  }
  return params;
}
