import { parseEntityRef, stringifyEntityRef } from '@backstage/catalog-model';
import { InputError } from '@backstage/errors';

/**
 * The model name and the catalog entity ref of the `model` input: an entity ref such as
 * `component:default/qwen2-5-7b-instruct` (what the EntityPicker gives) or a bare model name
 * such as `qwen2-5-7b-instruct`. The model's catalog entity is a Component named after it.
 */
export function parseModelRef(model: unknown): {
  name: string;
  entityRef: string;
} {
  if (typeof model !== 'string' || model.trim() === '') {
    throw new InputError(
      'model is required: a model Component entity ref such as component:default/qwen2-5-7b-instruct, or a model name',
    );
  }
  let ref;
  try {
    ref = parseEntityRef(model.trim(), {
      defaultKind: 'component',
      defaultNamespace: 'default',
    });
  } catch (e) {
    throw new InputError(
      `model '${model}' is not an entity ref nor a model name: ${
        (e as Error).message
      }`,
    );
  }
  if (ref.kind.toLocaleLowerCase('en-US') !== 'component') {
    throw new InputError(
      `model '${model}' is a ${ref.kind} entity; pass the model's Component (component:${ref.namespace}/${ref.name}) or the model name`,
    );
  }
  return { name: ref.name, entityRef: stringifyEntityRef(ref) };
}
