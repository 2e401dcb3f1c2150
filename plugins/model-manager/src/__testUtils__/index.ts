export { fakeApi, origin } from './fakeApi';
export { FLEET, heldSync, historyRow, target } from './fleet';
export { generateModels, modelList, MODELS } from './models';
