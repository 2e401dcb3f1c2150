/**
 * The model-manager engine: models.yaml schema, layered resolver with provenance and the
 * structural renderer. Pure: no filesystem, no network; usable by backend, frontend and CLI.
 *
 * @packageDocumentation
 */
export * from './constants';
export * from './names';
export * from './permissions';
export * from './source';
export * from './schema';
export * from './catalog';
export * from './profile';
export * from './resolver';
export * from './renderer';
export * from './status';
export * from './progress';
export * from './diagnosis';
export * from './diff';
export * from './gitops';
export * from './preflight';
export * from './api/types';
export * from './api/contract';
export * from './api/client';
