export { ServingContent, MODEL_ANNOTATION } from './ServingContent';
