export { RuntimeContent, RUNTIME_ANNOTATION } from './RuntimeContent';
