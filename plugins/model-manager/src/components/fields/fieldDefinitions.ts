import { ArgsEditor, argsEditorValidation } from './ArgsEditor';
import { ClusterPicker, clusterPickerValidation } from './ClusterPicker';
import { EnvEditor, envEditorValidation } from './EnvEditor';
import { NamespacePicker } from './NamespacePicker';
import { PreflightChecks, preflightChecksValidation } from './PreflightChecks';
import { RuntimePicker, runtimePickerValidation } from './RuntimePicker';
import {
  PullRequestCheck,
  pullRequestCheckValidation,
} from './PullRequestCheck';
import { ServerVersionPicker } from './ServerVersionPicker';

/**
 * The templates' form fields, once: each one's name (the templates' `ui:field`), component and
 * validation, made into the new frontend system's fields (./formFields.ts) and the legacy
 * system's field extensions (../../legacyFieldExtensions.ts) alike.
 */
export const fieldDefinitions = {
  serverVersion: {
    name: 'ModelServerVersionPicker',
    component: ServerVersionPicker as any,
  },
  env: {
    name: 'ModelEnvEditor',
    component: EnvEditor as any,
    validation: envEditorValidation as any,
  },
  args: {
    name: 'ModelArgsEditor',
    component: ArgsEditor as any,
    validation: argsEditorValidation as any,
  },
  namespace: {
    name: 'ModelNamespacePicker',
    component: NamespacePicker as any,
  },
  preflight: {
    name: 'ModelPreflightChecks',
    component: PreflightChecks as any,
    validation: preflightChecksValidation as any,
  },
  cluster: {
    name: 'ModelClusterPicker',
    component: ClusterPicker as any,
    validation: clusterPickerValidation as any,
  },
  runtime: {
    name: 'ModelRuntimePicker',
    component: RuntimePicker as any,
    validation: runtimePickerValidation as any,
  },
  pullRequest: {
    name: 'ModelPullRequestCheck',
    component: PullRequestCheck as any,
    validation: pullRequestCheckValidation as any,
  },
};
