import { createFormField } from '@backstage/plugin-scaffolder-react/alpha';
import { fieldDefinitions } from './fieldDefinitions';

export const serverVersionPickerField = createFormField(
  fieldDefinitions.serverVersion,
);
export const envEditorField = createFormField(fieldDefinitions.env);
export const argsEditorField = createFormField(fieldDefinitions.args);
export const namespacePickerField = createFormField(fieldDefinitions.namespace);
export const preflightChecksField = createFormField(fieldDefinitions.preflight);
export const clusterPickerField = createFormField(fieldDefinitions.cluster);
export const runtimePickerField = createFormField(fieldDefinitions.runtime);
export const pullRequestCheckField = createFormField(
  fieldDefinitions.pullRequest,
);
