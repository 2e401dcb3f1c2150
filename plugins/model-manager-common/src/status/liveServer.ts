/**
 * Reading a live KServe object back: which kinds carry a model's status, and where the model
 * server's image sits in each. Data, so an engine profile can declare it for a new kind.
 */

/** A path into an object: keys, or `{ name }` to pick the list item with that name. */
export type ObjectPath = ReadonlyArray<string | { name: string }>;

/** The kinds whose status says whether a model serves (its "main" object), and its image path. */
export const SERVER_IMAGE_PATHS: Record<string, ObjectPath> = {
  // KServe LLMInferenceService: spec.template is a PodSpec; our template names the container main.
  LLMInferenceService: [
    'spec',
    'template',
    'containers',
    { name: 'main' },
    'image',
  ],
  // KServe InferenceService: the predictor's model spec carries the serving container's image.
  InferenceService: ['spec', 'predictor', 'model', 'image'],
};

/** Whether objects of this kind carry the model's KServe status. */
export function isServerKind(kind: string): boolean {
  return Object.prototype.hasOwnProperty.call(SERVER_IMAGE_PATHS, kind);
}

/** The value at `path` in `object`, or undefined. */
export function readPath(object: unknown, path: ObjectPath): unknown {
  let value: any = object;
  for (const step of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value =
      typeof step === 'string'
        ? value[step]
        : Array.isArray(value)
        ? value.find(i => i?.name === step.name)
        : undefined;
  }
  return value;
}

/** The model server image of a live (or rendered) main object. */
export function serverImageOf(
  object: { kind?: string } & Record<string, unknown>,
): string | undefined {
  const path = object.kind ? SERVER_IMAGE_PATHS[object.kind] : undefined;
  const image = path ? readPath(object, path) : undefined;
  return typeof image === 'string' ? image : undefined;
}
