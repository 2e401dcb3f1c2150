export * from './types';
export {
  renderGitOpsLayout,
  GITOPS_RECREATE_ANNOTATIONS,
  GITOPS_SHARED_OBJECT_ANNOTATIONS,
} from './renderGitOpsLayout';
