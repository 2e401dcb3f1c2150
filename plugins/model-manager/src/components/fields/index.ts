export { ServerVersionPicker, modelNameOf } from './ServerVersionPicker';
export { EnvEditor, envEditorValidation } from './EnvEditor';
export { ArgsEditor, argsEditorValidation } from './ArgsEditor';
export { envProblems, argsProblems } from './validation';
export { NamespacePicker } from './NamespacePicker';
export { PreflightChecks, preflightSummary } from './PreflightChecks';
export { ClusterPicker } from './ClusterPicker';
export { PullRequestCheck } from './PullRequestCheck';
export { RuntimePicker } from './RuntimePicker';
