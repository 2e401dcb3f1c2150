export { createGitOpsRouter } from './gitopsRouter';
export { pullRequestReadiness } from './pullRequestReadiness';
