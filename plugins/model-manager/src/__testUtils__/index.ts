export { fakeApi, origin } from './fakeApi';
export { FLEET, historyRow, target } from './fleet';
export { generateModels, modelList, MODELS } from './models';
