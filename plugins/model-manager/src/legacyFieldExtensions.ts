import { createScaffolderFieldExtension } from '@backstage/plugin-scaffolder-react';
import { fieldDefinitions } from './components/fields/fieldDefinitions';
import { modelManagerPlugin } from './plugin';

/*
 * The templates' form fields for an app on the legacy frontend system, where a field extension is
 * a component placed under `<ScaffolderFieldExtensions>` in the `/create` route
 * (createScaffolderFieldExtension + plugin.provide, as @backstage/plugin-scaffolder-react 1.55's
 * own README shows). The same definitions (components/fields/fieldDefinitions.ts) as the new system's
 * FormFieldBlueprints in ./alpha.tsx, under the same names the templates' `ui:field` use. Provided by
 * modelManagerPlugin, so its API client comes with them.
 */

/** `ui:field: ModelServerVersionPicker`: the runtime versions the model can run on. */
export const ModelServerVersionPickerFieldExtension =
  modelManagerPlugin.provide(
    createScaffolderFieldExtension(fieldDefinitions.serverVersion),
  );

/** `ui:field: ModelEnvEditor`: environment variables, checked as the backend checks them. */
export const ModelEnvEditorFieldExtension = modelManagerPlugin.provide(
  createScaffolderFieldExtension(fieldDefinitions.env),
);

/** `ui:field: ModelArgsEditor`: engine flags, checked against the model's engine. */
export const ModelArgsEditorFieldExtension = modelManagerPlugin.provide(
  createScaffolderFieldExtension(fieldDefinitions.args),
);

/** `ui:field: ModelNamespacePicker`: the namespaces the chosen cluster allows. */
export const ModelNamespacePickerFieldExtension = modelManagerPlugin.provide(
  createScaffolderFieldExtension(fieldDefinitions.namespace),
);

/** `ui:field: ModelClusterPicker`: the configured clusters. */
export const ModelClusterPickerFieldExtension = modelManagerPlugin.provide(
  createScaffolderFieldExtension(fieldDefinitions.cluster),
);

/** `ui:field: ModelRuntimePicker`: the runtimes of models.yaml (the rollout form). */
export const ModelRuntimePickerFieldExtension = modelManagerPlugin.provide(
  createScaffolderFieldExtension(fieldDefinitions.runtime),
);

/** `ui:field: ModelPreflightChecks`: the target cluster checked before the deploy. */
export const ModelPreflightChecksFieldExtension = modelManagerPlugin.provide(
  createScaffolderFieldExtension(fieldDefinitions.preflight),
);

/** `ui:field: ModelPullRequestCheck`: whether a pull request can be opened where asked. */
export const ModelPullRequestCheckFieldExtension = modelManagerPlugin.provide(
  createScaffolderFieldExtension(fieldDefinitions.pullRequest),
);
