/**
 * model-manager frontend plugin.
 *
 * @packageDocumentation
 */
export {
  modelManagerPlugin,
  ModelsPage,
  DeploymentsPage,
  EntityServingContent,
  EntityRuntimeContent,
  rootRouteRef,
  deploymentsRouteRef,
} from './plugin';
export * from './api';
export {
  KServeStatusCard,
  WithKServeStatus,
} from './components/KServeStatusCard';
export {
  ModelServerVersionPickerFieldExtension,
  ModelEnvEditorFieldExtension,
  ModelArgsEditorFieldExtension,
  ModelNamespacePickerFieldExtension,
  ModelClusterPickerFieldExtension,
  ModelRuntimePickerFieldExtension,
  ModelPreflightChecksFieldExtension,
  ModelPullRequestCheckFieldExtension,
} from './legacyFieldExtensions';
