export { fakeApi } from './fakeApi';
export { FLEET, historyRow, target } from './fleet';
