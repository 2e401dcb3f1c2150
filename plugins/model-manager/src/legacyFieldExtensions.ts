import { createScaffolderFieldExtension } from '@backstage/plugin-scaffolder-react';
import {
  ArgsEditor,
  argsEditorValidation,
} from './components/fields/ArgsEditor';
import {
  ClusterPicker,
  clusterPickerValidation,
} from './components/fields/ClusterPicker';
import { EnvEditor, envEditorValidation } from './components/fields/EnvEditor';
import { NamespacePicker } from './components/fields/NamespacePicker';
import { PreflightChecks } from './components/fields/PreflightChecks';
import {
  PullRequestCheck,
  pullRequestCheckValidation,
} from './components/fields/PullRequestCheck';
import { ServerVersionPicker } from './components/fields/ServerVersionPicker';
import { modelManagerPlugin } from './plugin';

/*
 * The templates' form fields for an app on the legacy frontend system, where a field extension is
 * a component placed under `<ScaffolderFieldExtensions>` in the `/create` route
 * (createScaffolderFieldExtension + plugin.provide, as @backstage/plugin-scaffolder-react 1.55's
 * own README shows). The same components and validations as the new system's FormFieldBlueprints
 * in ./alpha.tsx, under the same names the templates' `ui:field` use. Provided by
 * modelManagerPlugin, so its API client comes with them.
 */

/** `ui:field: ModelServerVersionPicker`: the runtime versions the model can run on. */
export const ModelServerVersionPickerFieldExtension =
  modelManagerPlugin.provide(
    createScaffolderFieldExtension({
      name: 'ModelServerVersionPicker',
      component: ServerVersionPicker as any,
    }),
  );

/** `ui:field: ModelEnvEditor`: environment variables, checked as the backend checks them. */
export const ModelEnvEditorFieldExtension = modelManagerPlugin.provide(
  createScaffolderFieldExtension({
    name: 'ModelEnvEditor',
    component: EnvEditor as any,
    validation: envEditorValidation as any,
  }),
);

/** `ui:field: ModelArgsEditor`: engine flags, checked against the model's engine. */
export const ModelArgsEditorFieldExtension = modelManagerPlugin.provide(
  createScaffolderFieldExtension({
    name: 'ModelArgsEditor',
    component: ArgsEditor as any,
    validation: argsEditorValidation as any,
  }),
);

/** `ui:field: ModelNamespacePicker`: the namespaces the chosen cluster allows. */
export const ModelNamespacePickerFieldExtension = modelManagerPlugin.provide(
  createScaffolderFieldExtension({
    name: 'ModelNamespacePicker',
    component: NamespacePicker as any,
  }),
);

/** `ui:field: ModelClusterPicker`: the configured clusters. */
export const ModelClusterPickerFieldExtension = modelManagerPlugin.provide(
  createScaffolderFieldExtension({
    name: 'ModelClusterPicker',
    component: ClusterPicker as any,
    validation: clusterPickerValidation as any,
  }),
);

/** `ui:field: ModelPreflightChecks`: the target cluster checked before the deploy. */
export const ModelPreflightChecksFieldExtension = modelManagerPlugin.provide(
  createScaffolderFieldExtension({
    name: 'ModelPreflightChecks',
    component: PreflightChecks as any,
  }),
);

/** `ui:field: ModelPullRequestCheck`: whether a pull request can be opened where asked. */
export const ModelPullRequestCheckFieldExtension = modelManagerPlugin.provide(
  createScaffolderFieldExtension({
    name: 'ModelPullRequestCheck',
    component: PullRequestCheck as any,
    validation: pullRequestCheckValidation as any,
  }),
);
