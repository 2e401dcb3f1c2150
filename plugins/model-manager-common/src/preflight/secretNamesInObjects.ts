/**
 * The names of the Secrets that rendered objects reference, so a preflight can check that each
 * exists (by its metadata only) before a deploy: `env[].valueFrom.secretKeyRef.name`,
 * `envFrom[].secretRef.name`, `imagePullSecrets[].name`, and volumes' `secret.secretName`, at
 * any depth (a PodSpec inside an InferenceService predictor, an LLMInferenceService template or a
 * Job). Names from the objects as rendered, whatever layer of models.yaml put them there. Sorted,
 * each once.
 */
export function secretNamesInObjects(
  objects: ReadonlyArray<{ manifest: unknown }>,
): string[] {
  return Object.keys(secretKeysInObjects(objects));
}

/** How rendered objects use one Secret: the keys read from it, and whether it pulls images. */
export type SecretUse = {
  /** The keys read by `secretKeyRef.key`, sorted; none for a Secret used only whole. */
  keys: string[];
  /** Named in `imagePullSecrets`: a registry credential (`kubernetes.io/dockerconfigjson`). */
  imagePull: boolean;
};

/**
 * Each Secret the rendered objects reference (as {@link secretNamesInObjects} finds them), with
 * how they use it: what `kubectl create secret` must be given for the pod to start. Names sorted.
 */
export function secretKeysInObjects(
  objects: ReadonlyArray<{ manifest: unknown }>,
): Record<string, SecretUse> {
  const uses = new Map<string, { keys: Set<string>; imagePull: boolean }>();
  const add = (name: unknown, key?: unknown, imagePull = false) => {
    if (typeof name !== 'string' || !name) return;
    const use = uses.get(name) ?? { keys: new Set<string>(), imagePull: false };
    uses.set(name, use);
    if (typeof key === 'string' && key) use.keys.add(key);
    if (imagePull) use.imagePull = true;
  };
  const walk = (value: unknown, key?: string) => {
    if (Array.isArray(value)) {
      if (key === 'imagePullSecrets')
        for (const item of value)
          add((item as { name?: unknown })?.name, undefined, true);
      for (const item of value) walk(item);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const obj = value as Record<string, unknown>;
    if (key === 'secretKeyRef') add(obj.name, obj.key);
    if (key === 'secretRef') add(obj.name);
    if (key === 'secret') add(obj.secretName);
    for (const [k, v] of Object.entries(obj)) walk(v, k);
  };
  for (const o of objects) walk(o.manifest);
  return Object.fromEntries(
    [...uses.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, use]) => [
        name,
        { keys: [...use.keys].sort(), imagePull: use.imagePull },
      ]),
  );
}
