export { loadTemplate, renderReviewStep } from './scaffolderTemplates';
export { modelEntity, runtimeEntity } from './entities';
export { failsWith, fakeApi, origin } from './fakeApi';
export { fieldProps, onModel } from './fieldProps';
export {
  filterFleet,
  FLEET,
  fleetOf,
  heldSync,
  historyRow,
  target,
} from './fleet';
export { liveApi, liveFleetApi } from './liveApi';
export { FIELD_RUNTIMES, generateModels, modelList, MODELS } from './models';
export { renderPage } from './renderPage';
export { renderStatusCard } from './renderStatusCard';
export { qwenStatus } from './status';
export { renderWithApi, withApi, type TestAppOptions } from './renderWithApi';
export { uniqueIdWarnings } from './uniqueIdWarnings';
