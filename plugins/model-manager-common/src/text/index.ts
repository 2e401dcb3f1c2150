export { markdownText } from './markdownText';
