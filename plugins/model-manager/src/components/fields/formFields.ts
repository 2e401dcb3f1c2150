import { createFormField } from '@backstage/plugin-scaffolder-react/alpha';
import { ArgsEditor, argsEditorValidation } from './ArgsEditor';
import { ClusterPicker, clusterPickerValidation } from './ClusterPicker';
import { EnvEditor, envEditorValidation } from './EnvEditor';
import { NamespacePicker } from './NamespacePicker';
import { PreflightChecks } from './PreflightChecks';
import {
  PullRequestCheck,
  pullRequestCheckValidation,
} from './PullRequestCheck';
import { ServerVersionPicker } from './ServerVersionPicker';

export const serverVersionPickerField = createFormField({
  name: 'ModelServerVersionPicker',
  component: ServerVersionPicker as any,
});
export const envEditorField = createFormField({
  name: 'ModelEnvEditor',
  component: EnvEditor as any,
  validation: envEditorValidation as any,
});
export const argsEditorField = createFormField({
  name: 'ModelArgsEditor',
  component: ArgsEditor as any,
  validation: argsEditorValidation as any,
});
export const namespacePickerField = createFormField({
  name: 'ModelNamespacePicker',
  component: NamespacePicker as any,
});
export const preflightChecksField = createFormField({
  name: 'ModelPreflightChecks',
  component: PreflightChecks as any,
});
export const clusterPickerField = createFormField({
  name: 'ModelClusterPicker',
  component: ClusterPicker as any,
  validation: clusterPickerValidation as any,
});
export const pullRequestCheckField = createFormField({
  name: 'ModelPullRequestCheck',
  component: PullRequestCheck as any,
  validation: pullRequestCheckValidation as any,
});
