export { pullRequestReadiness } from './pullRequestReadiness';
