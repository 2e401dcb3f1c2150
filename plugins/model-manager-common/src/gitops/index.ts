export * from './types';
export {
  renderGitOpsLayout,
  GITOPS_SHARED_OBJECT_ANNOTATIONS,
} from './renderGitOpsLayout';
