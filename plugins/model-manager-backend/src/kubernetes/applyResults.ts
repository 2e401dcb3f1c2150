import type { KubernetesObject } from '@kubernetes/client-node';
import type { RenderedObject } from '@model-manager/plugin-model-manager-common';
import { objectLabel } from './describeFailure';
import { immutableFields } from './immutableFields';
import type { ObjectResult } from './types';

/** `nothing was applied` / `applied before it: Job models/x, ...` for a failure at `index`. */
export function doneBefore(
  results: ObjectResult[],
  index: number,
  verb: 'applied' | 'deleted',
): string {
  return index === 0
    ? `nothing was ${verb}`
    : `${verb} before it: ${results
        .slice(0, index)
        .map(objectLabel)
        .join(', ')}`;
}

/** The result of `o` before anything happened to it (without its action). */
export function header(o: RenderedObject): Omit<ObjectResult, 'action'> {
  return {
    apiVersion: o.apiVersion,
    kind: o.kind,
    name: o.name,
    ...(o.namespace ? { namespace: o.namespace } : {}),
  };
}

/** The immutable fields of `error` when `object` may be deleted and created again for them. */
export function replaceable(
  object: RenderedObject,
  error: unknown,
): string[] | undefined {
  return object.applyPolicy === 'recreate-when-immutable'
    ? immutableFields(error)
    : undefined;
}

/** What an apply did, told from the object read before it and the one it answered. */
export function actionOf(
  before: KubernetesObject | undefined,
  after: KubernetesObject | undefined,
): ObjectResult['action'] {
  if (!before) return 'created';
  if (
    after &&
    before.metadata?.resourceVersion === after.metadata?.resourceVersion
  )
    return 'unchanged';
  return 'configured';
}
