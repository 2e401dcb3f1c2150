import { useApi } from '@backstage/core-plugin-api';
import type { FieldExtensionComponentProps } from '@backstage/plugin-scaffolder-react';
import useAsync from 'react-use/esm/useAsync';
import { modelManagerApiRef } from '../../api';
import { emptyChoiceLabel, knownNameValidation } from './knownName';
import { SelectField } from './SelectField';

/**
 * The cluster to deploy to: a picker of the clusters the backend is configured with
 * (`GET /clusters`), not free text, so a name the deploy would refuse ("unknown cluster") cannot
 * be typed. A cluster passed in a link that is not configured is shown as such, beside the field,
 * with the ones that are; the picker stays blank so nothing wrong is submitted.
 */
export function ClusterPicker(
  props: FieldExtensionComponentProps<string, { emptyLabel?: string }>,
) {
  const { formData, onChange, schema, idSchema, rawErrors, required } = props;
  // An optional field (the rollout's "Only this cluster") offers empty, in its own words.
  const emptyLabel = emptyChoiceLabel(props);
  const api = useApi(modelManagerApiRef);
  const state = useAsync(() => api.listClusters(), [api]);
  const title = schema.title ?? 'Cluster';
  const clusters = state.value ?? [];
  const known = clusters.some(c => c.name === formData);
  const unknown = !!formData && !!state.value && !known;
  const names = clusters.map(c => c.name).join(', ');
  let help: string;
  if (state.error) help = `Could not load the clusters: ${state.error.message}`;
  else if (unknown)
    help = `${formData} (from the link) is not a cluster the portal can deploy to; pick one of ${names}.`;
  else if (state.value && clusters.length === 0)
    help =
      'No cluster is configured for deploys: ask the platform team to add one to the portal.';
  else if (emptyLabel)
    help =
      schema.description ?? 'One of the clusters the portal can deploy to.';
  else
    help =
      'The clusters the portal can deploy to; the namespaces each allows are listed below.';
  return (
    <SelectField
      id={idSchema.$id}
      title={title}
      testId="cluster-picker"
      value={(known && formData) || ''}
      choices={clusters.map(c => ({
        value: c.name,
        label: `${c.name}${c.namespaces ? '' : ' (any namespace)'}`,
      }))}
      emptyLabel={emptyLabel}
      onChange={onChange}
      required={required}
      disabled={state.loading}
      error={unknown || !!state.error || !!rawErrors?.length}
      help={help}
    />
  );
}

/** A cluster the backend does not know blocks the step (the field says why beside it). */
export const clusterPickerValidation = knownNameValidation(
  api => api.listClusters(),
  'is not a configured cluster; the reason is shown beside it',
);
