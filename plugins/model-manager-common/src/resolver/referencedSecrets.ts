import type { Origin } from '../catalog/types';
import { isSecretKeyRef } from '../schema/secretRef';
import type { ResolvedServer } from './types';

/** One use of a Secret by a resolved server. */
export type SecretUse =
  | { kind: 'env'; env: string; key: string; origin: Origin }
  | { kind: 'image-pull'; origin: Origin };

/** A Secret a resolved server needs in its namespace, and what uses it. */
export interface ReferencedSecret {
  name: string;
  uses: SecretUse[];
}

/**
 * The Secrets a resolved server references, by name (sorted), each with its uses: env variables
 * read from one of its keys (`valueFrom.secretKeyRef`; the download env is a copy of these) and
 * image pull secrets. Names and keys only: a Secret's value is never known here. For a check that
 * they exist (through metadata: PartialObjectMetadata, `get` on secrets).
 */
export function referencedSecrets(server: ResolvedServer): ReferencedSecret[] {
  const byName = new Map<string, SecretUse[]>();
  const use = (name: string, u: SecretUse) =>
    byName.set(name, [...(byName.get(name) ?? []), u]);
  for (const e of server.env) {
    if (isSecretKeyRef(e.value))
      use(e.value.secretKeyRef.name, {
        kind: 'env',
        env: e.name,
        key: e.value.secretKeyRef.key,
        origin: e.origin,
      });
  }
  for (const p of server.imagePullSecrets ?? [])
    use(p.value, { kind: 'image-pull', origin: p.origin });
  return [...byName.keys()]
    .sort()
    .map(name => ({ name, uses: byName.get(name)! }));
}
