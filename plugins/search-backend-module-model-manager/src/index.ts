/**
 * Search module of model-manager: models findable by model id, runtime, category and tags.
 *
 * @packageDocumentation
 */
export { searchModuleModelManager as default } from './module';
export { modelSearchTransformer } from './modelSearchTransformer';
