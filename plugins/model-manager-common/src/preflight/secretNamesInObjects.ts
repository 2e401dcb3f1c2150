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
  const names = new Set<string>();
  const walk = (value: unknown, key?: string) => {
    if (Array.isArray(value)) {
      if (key === 'imagePullSecrets')
        for (const item of value) addName(item, names);
      for (const item of value) walk(item);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const obj = value as Record<string, unknown>;
    if (key === 'secretKeyRef' || key === 'secretRef') addName(obj, names);
    if (
      key === 'secret' &&
      typeof obj.secretName === 'string' &&
      obj.secretName
    )
      names.add(obj.secretName);
    for (const [k, v] of Object.entries(obj)) walk(v, k);
  };
  for (const o of objects) walk(o.manifest);
  return [...names].sort();
}

function addName(item: unknown, names: Set<string>) {
  const name = (item as { name?: unknown } | null)?.name;
  if (typeof name === 'string' && name) names.add(name);
}
