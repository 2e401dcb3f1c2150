import { useApi } from '@backstage/core-plugin-api';
import type { FieldExtensionComponentProps } from '@backstage/plugin-scaffolder-react';
import useAsync from 'react-use/esm/useAsync';
import { modelManagerApiRef } from '../../api';
import { knownNameValidation } from './knownName';
import { SelectField } from './SelectField';

/**
 * A runtime of models.yaml (a key of `runtimes:`, from `GET /runtimes`), picked instead of typed,
 * each with its versions or "flat". A runtime passed in a link that models.yaml does not have is
 * said beside the field, with the ones it has; the picker stays blank so nothing wrong is submitted.
 */
export function RuntimePicker(props: FieldExtensionComponentProps<string>) {
  const { formData, onChange, schema, idSchema, rawErrors, required } = props;
  const api = useApi(modelManagerApiRef);
  const state = useAsync(() => api.listRuntimes(), [api]);
  const title = schema.title ?? 'Runtime';
  const runtimes = state.value ?? [];
  const known = runtimes.some(r => r.name === formData);
  const unknown = !!formData && !!state.value && !known;
  const names = runtimes.map(r => r.name).join(', ');
  let help: string;
  if (state.error) help = `Could not load the runtimes: ${state.error.message}`;
  else if (unknown)
    help = `${formData} (from the link) is not a runtime of models.yaml; pick one of ${names}.`;
  else help = schema.description ?? 'A runtime of models.yaml.';
  return (
    <SelectField
      id={idSchema.$id}
      title={title}
      testId="runtime-picker"
      value={(known && formData) || ''}
      choices={runtimes.map(r => ({
        value: r.name,
        label: `${r.name}${
          r.versioned
            ? ` — versions ${r.versions.map(v => v.version).join(', ')}${
                r.defaultVersion ? ` (default ${r.defaultVersion})` : ''
              }`
            : ' — flat (no versions)'
        }`,
      }))}
      onChange={onChange}
      required={required}
      disabled={state.loading}
      error={unknown || !!state.error || !!rawErrors?.length}
      help={help}
    />
  );
}

/** A runtime models.yaml does not have blocks the step (the field says why beside it). */
export const runtimePickerValidation = knownNameValidation(
  api => api.listRuntimes(),
  'is not a runtime of models.yaml; the reason is shown beside it',
);
