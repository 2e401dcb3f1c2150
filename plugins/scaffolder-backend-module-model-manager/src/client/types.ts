/** The model-manager backend's REST shapes, from the shared common package. */
export type {
  DeploymentResult,
  DeployRequest,
  DeployTarget,
  DiffResult,
  ObjectAction,
  ObjectResult,
} from '@model-manager/plugin-model-manager-common';
