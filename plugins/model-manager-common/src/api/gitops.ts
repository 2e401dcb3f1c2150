/**
 * The answer of `GET /gitops/pull-request-readiness?repoUrl=`: whether the portal could open a
 * pull request on that repository (the "Propose model deployment" template asks before it runs).
 */
export type PullRequestReadiness = {
  /** The repository's host, e.g. github.com (empty when repoUrl names none). */
  host: string;
  ready: boolean;
  /** What the portal would authenticate with; never the credential itself. */
  credentials: 'token' | 'app' | 'none';
  /** In words: what the pull request is opened with, or why it cannot be and who can fix it. */
  message: string;
};
