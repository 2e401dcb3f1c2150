export { fakeApi, origin } from './fakeApi';
export { FLEET, historyRow, target } from './fleet';
