import { KubernetesApiError } from './KubernetesApiError';

/**
 * The fields an update may not change, when that is all the API server refused: every cause of a
 * 422 Invalid is apivalidation.ValidateImmutableField's "field is immutable" (kubernetes
 * pkg/apis/core/validation; for Jobs: spec.completions, spec.selector, spec.template, ... in
 * pkg/apis/batch/validation ValidateJobSpecUpdate). Recorded against v1.34.9: `spec.template:
 * Invalid value: {…a Go struct…}: field is immutable`, cause `{reason: FieldValueInvalid, field:
 * spec.template}`. Undefined for any other failure: an object with another error too would be
 * refused again after it was deleted.
 */
export function immutableFields(error: unknown): string[] | undefined {
  if (
    !(error instanceof KubernetesApiError) ||
    error.statusCode !== 422 ||
    error.causes.length === 0 ||
    !error.causes.every(c => /field is immutable$/.test(c.message ?? ''))
  )
    return undefined;
  return error.causes.map(c => c.field ?? '(unnamed field)');
}

/** Why an object is deleted and created again, for the task log and the history. */
export function replacedBecause(fields: string[]): string {
  return `${fields.join(
    ', ',
  )} cannot be changed on a live object (field is immutable): deleted (propagationPolicy Background) and created again`;
}
