export * from './types';
export * from './engineProfileSchema';
export { loadProfile } from './loadProfile';
export { categoryOperations } from './categoryOperations';
export * from './plumbing';
export { ENDPOINT_SOURCES } from './endpoints';
export { knownProfileKeys } from './profileKeys';
