/** The model-manager backend's REST shapes, from the shared common package. */
export type {
  DeploymentResult,
  DeployRequest,
  DeployTarget,
  DiffResult,
  FleetQuery,
  FleetResponse,
  RolloutApplyRequest,
  RolloutApplyResult,
  RolloutMove,
  RolloutTargetResult,
  RolloutPlan,
  RolloutPlanQuery,
  ModelStatus,
  ModelStatusResponse,
  ObjectAction,
  ObjectResult,
} from '@model-manager/plugin-model-manager-common';
