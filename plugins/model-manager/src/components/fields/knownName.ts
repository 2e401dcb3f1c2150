import { modelManagerApiRef, type ModelManagerApi } from '../../api';

/**
 * A field validator for a picker of names the backend lists (clusters, runtimes): a value from a
 * link that is not among them blocks the step with `message`; the field itself says why beside
 * it. Empty is left to `required`.
 */
export function knownNameValidation(
  list: (api: ModelManagerApi) => Promise<Array<{ name: string }>>,
  message: string,
) {
  return async (
    value: string | undefined,
    validation: { addError(message: string): void },
    context: { apiHolder?: { get(ref: unknown): unknown } },
  ) => {
    const api = context?.apiHolder?.get(modelManagerApiRef) as
      | ModelManagerApi
      | undefined;
    if (!value || !api) return;
    const names = await list(api);
    if (!names.some(n => n.name === value)) validation.addError(message);
  };
}

/**
 * The words of an optional picker's empty choice (the rollout's "Only this cluster": every
 * cluster), from its `ui:options.emptyLabel`, else "none"; undefined for a required field, which
 * offers no empty choice.
 */
export function emptyChoiceLabel(props: {
  required?: boolean;
  uiSchema?: { 'ui:options'?: { emptyLabel?: string } };
}): string | undefined {
  return props.required
    ? undefined
    : props.uiSchema?.['ui:options']?.emptyLabel ?? 'none';
}
