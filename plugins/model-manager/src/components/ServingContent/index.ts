export { ServingContent } from './ServingContent';
