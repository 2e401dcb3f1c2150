export { createRouter } from './createRouter';
export type { RouterOptions } from './types';
