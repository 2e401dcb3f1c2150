/**
 * The model-manager engine: models.yaml schema, layered resolver with provenance and the
 * structural renderer. Pure: no filesystem, no network; usable by backend, frontend and CLI.
 *
 * The public surface is listed by name: what the other packages of this repository use (and the
 * types their signatures need). Its API report (report.api.md, `npm run api-reports`) shows every
 * change to it in review.
 *
 * @packageDocumentation
 */
export {
  CATEGORY_ANNOTATION,
  FIELD_MANAGER,
  KUBERNETES_ID_LABEL,
  MANAGED_BY_LABEL,
  MANAGED_BY_VALUE,
  MODEL_ANNOTATION,
  MODEL_ID_ANNOTATION,
  NAME_LABEL,
  RUNTIME_ANNOTATION,
  RUNTIME_LABEL,
  SERVER_VERSION_LABEL,
} from './constants';
export { isNamespaceName, labelValueProblem, namespaceProblem } from './names';
export { markdownText } from './text';
export {
  modelDeployPermission,
  modelEntityRef,
  modelManagerPermissions,
  modelRenderPermission,
  modelUndeployPermission,
} from './permissions';
export { CatalogError, formatProblem, MAX_SOURCE_BYTES } from './source';
export type { CatalogProblem } from './source';
export {
  formatEnvValue,
  isSecretKeyRef,
  secretKeyProblem,
  secretNameProblem,
} from './schema';
export type { EnvMap, EnvValue, SecretKeyRef } from './schema';
export {
  buildCatalog,
  catalogSourcesFromFiles,
  runtimesFileRole,
} from './catalog';
export type {
  Catalog,
  CatalogModel,
  CatalogRuntime,
  CatalogSources,
  Layer,
  Origin,
  SourceText,
} from './catalog';
export type {
  ControllerConfigField,
  ControllerGateway,
  ControllerTls,
  GatewayClassRequirement,
  GatewayConfigRequirement,
  EngineProfile,
  StatusReading,
} from './profile';
export type { EndpointRule } from './status';
export { categoryOperations } from './profile';
export {
  argRefusal,
  credentialValueReason,
  describeOrigin,
  envQueryParams,
  envValueRefusal,
  explainServer,
  layerInfo,
  LAYERS,
  parseEnvSecret,
  parseQuantity,
  resolveServer,
  SECRET_VALUE_REFUSAL,
  validateOverrides,
} from './resolver';
export type {
  ExplainRow,
  LayerInfo,
  RemovedEnvVar,
  RemovedSetting,
  ResolvedArg,
  ResolvedEnvVar,
  ResolvedPullSecret,
  ResolvedServer,
  ServerOverrides,
  Traced,
} from './resolver';
export {
  controllerGatewayOf,
  controllerKindsOf,
  controllerTlsOf,
  gatewayClassOf,
  gatewayConfigOf,
  isOwnedByModel,
  renderManifests,
  servedModelName,
  toKubernetesYaml,
  toKubernetesYamlStream,
} from './renderer';
export type { ApplyPolicy, RenderedObject } from './renderer';
export { progressObjectOf } from './progress';
export type { ProgressObject } from './progress';
export {
  isServerKind,
  notReadyHeadline,
  readPath,
  selectEndpoint,
  serverImageOf,
  statusReadingOf,
  summarizeJob,
  summarizeKServeStatus,
  routeRefusals,
} from './status';
export type {
  ConditionSummary,
  EndpointSource,
  JobPhase,
  JobProgress,
  KServeStatusSummary,
  ModelEndpoint,
  NotReadyHeadline,
} from './status';
export {
  diagnose,
  diagnosePod,
  formatDiagnosis,
  isServerPod,
  JOB_NAME_LABEL,
  logsToRead,
  serverPodSelector,
  signaturesFor,
} from './diagnosis';
export type { CompiledSignature } from './diagnosis';
export { diffManifests, diffObject } from './diff';
export {
  GITOPS_RECREATE_ANNOTATIONS,
  GITOPS_SHARED_OBJECT_ANNOTATIONS,
  renderGitOpsLayout,
} from './gitops';
export {
  APPLY_ANYWAY_REST,
  preflightRefusalMessage,
  secretKeysInObjects,
  secretNamesInObjects,
  type SecretUse,
} from './preflight';
export {
  compareTargets,
  FLEET_STATES,
  MODEL_SORT_FIELDS,
  preflightFailed,
  rolloutPlanParams,
  targetLabel,
} from './api/types';
export type {
  AppliedRevision,
  CatalogStatus,
  ClusterListResponse,
  ClusterSummary,
  DeploymentAction,
  DeploymentFailedResponse,
  DeploymentHistoryItem,
  DeploymentHistoryResponse,
  DeploymentRecord,
  DeploymentResult,
  DeployRequest,
  DeployTarget,
  DiagnosedContainer,
  DiagnosedLog,
  DiagnosedPod,
  Diagnosis,
  DiffResult,
  DownloadStatus,
  ErrorResponse,
  FailureKind,
  FieldChange,
  FleetError,
  FleetQuery,
  FleetResponse,
  FleetRevision,
  FleetState,
  FleetTarget,
  HealthResponse,
  Hold,
  JsonFieldValue,
  ModelFacets,
  ModelListQuery,
  ModelListResponse,
  ModelSort,
  ModelSortField,
  ModelStatus,
  ModelStatusResponse,
  ModelSummary,
  ObjectAction,
  ObjectChanges,
  ObjectResult,
  PreflightCheck,
  PreflightFailedResponse,
  PreflightResponse,
  PreflightStatus,
  PullRequestReadiness,
  RenderRequest,
  RenderResponse,
  ResolveResponse,
  RevisionDiff,
  RollbackRequest,
  RolloutApplyRequest,
  RolloutApplyResult,
  RolloutMove,
  RolloutPlan,
  RolloutPlanQuery,
  RolloutStay,
  RolloutTargetResult,
  RuntimeListResponse,
  RuntimeSummary,
  SyncDifference,
  SyncReason,
  TargetSync,
  WhatRuns,
} from './api/types';
export {
  fleetEventSchema,
  jsonFieldValueSchema,
  modelManagerContract,
} from './api/contract';
export type { FleetEvent } from './api/contract';
export type { RouteContract, RouteName } from './api/contract';
export {
  ModelManagerRestClient,
  readErrorAnswer,
  readFleetEvents,
} from './api/client';
export type {
  ModelManagerTransport,
  QueryValue,
  RouteAnswer,
  RouteInput,
  SentRequest,
} from './api/client';
