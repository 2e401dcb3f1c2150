import { useApi } from '@backstage/core-plugin-api';
import type { FieldExtensionComponentProps } from '@backstage/plugin-scaffolder-react';
import FormHelperText from '@material-ui/core/FormHelperText';
import TextField from '@material-ui/core/TextField';
import { useEffect, useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { modelManagerApiRef } from '../../api';
import { emptyChoiceLabel } from './knownName';
import { SelectField } from './SelectField';
import { namespaceProblem } from './validation';

/**
 * The namespace to deploy to: a picker of the namespaces the chosen cluster allows
 * (`modelManager.kubernetes.clusters.<name>.namespaces`, from `GET /clusters`), or free text
 * where the cluster has no list. A namespace picked for another cluster is cleared when the
 * chosen one does not allow it, so what is shown is what is submitted.
 */
export function NamespacePicker(
  props: FieldExtensionComponentProps<
    string | undefined,
    { clusterField?: string; emptyLabel?: string }
  >,
) {
  const {
    formData,
    onChange,
    schema,
    formContext,
    idSchema,
    rawErrors,
    required,
  } = props;
  const clusterField =
    props.uiSchema?.['ui:options']?.clusterField ?? 'cluster';
  const cluster = (formContext as any)?.formData?.[clusterField] as
    | string
    | undefined;
  const api = useApi(modelManagerApiRef);
  const state = useAsync(() => api.listClusters(), [api]);
  const chosen = state.value?.find(c => c.name === cluster);
  const allowed = chosen?.namespaces;
  const stale = !!formData && !!allowed && !allowed.includes(formData);
  // A namespace from a link (or picked for another cluster) that the allowlist refuses is
  // cleared, and the field says which one and why (never silently).
  const [refused, setRefused] = useState<string>();
  useEffect(() => {
    if (!stale) return;
    setRefused(
      `${formData} is not allowed on cluster ${cluster}: it takes models only in ${allowed!.join(
        ', ',
      )} (set by the platform team), so it was cleared. Pick one of them.`,
    );
    onChange(undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stale, onChange]);

  const title = schema.title ?? 'Namespace';
  // An optional field (the rollout's "Only this namespace") offers empty, in its own words.
  const emptyLabel = emptyChoiceLabel(props);
  if (!allowed) {
    // What is wrong is said here, once (the template sets `ui:hideError`; the list at the top of
    // the step only names the field).
    const problem = namespaceProblem(formData);
    return (
      <TextField
        id={idSchema.$id}
        label={title}
        value={formData ?? ''}
        required={required}
        error={!!problem || !!rawErrors?.length}
        onChange={e => onChange(e.target.value || undefined)}
        helperText={
          state.error
            ? `Could not load the clusters: ${state.error.message}`
            : problem ??
              (!formData && rawErrors?.length
                ? 'Type the namespace to deploy to (e.g. models).'
                : `${schema.description ?? ''}${
                    chosen ? ` Cluster ${cluster} allows any namespace.` : ''
                  }`.trim())
        }
        fullWidth
        margin="normal"
      />
    );
  }
  return (
    <SelectField
      id={idSchema.$id}
      title={title}
      value={formData && allowed.includes(formData) ? formData : ''}
      choices={allowed.map(n => ({ value: n, label: n }))}
      emptyLabel={emptyLabel}
      onChange={value => {
        setRefused(undefined);
        onChange(value);
      }}
      required={required}
      error={!!rawErrors?.length}
      notes={
        refused && (
          <FormHelperText error data-testid="namespace-refused">
            {refused}
          </FormHelperText>
        )
      }
      help={`${
        !formData && rawErrors?.length
          ? 'Pick the namespace to deploy to. '
          : ''
      }The namespaces cluster ${cluster} allows models in.`}
    />
  );
}
